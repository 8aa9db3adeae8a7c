package dev.baton;

/**
 * How a lock holds its key, named as Jakarta EE names the modes of its local locks ({@code jakarta.ejb.LockType}):
 * several {@link #READ} holders share a key, a {@link #WRITE} holder has it alone.
 *
 * <p>A writer waits until the readers are gone, and while it waits no new reader gets in (on stores that keep
 * waiting turns, which every store that offers read locks does), so a stream of readers does not starve it. A read
 * lock is not upgraded: a thread that holds a key for reading and asks for it for writing fails at once with
 * {@link LockAlreadyHeldException}. Every acquisition, a reader's too, gets its own fencing token.
 *
 * @see Synchronized#type()
 * @see LockOptions#withType(LockType)
 */
public enum LockType {

    /** Shared with other readers (up to the permits, if set); excluded by a writer. */
    READ,

    /** Alone: no other reader or writer holds the key meanwhile. The default, and what a plain lock is. */
    WRITE
}
