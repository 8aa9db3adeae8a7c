package dev.baton.impl.engine;

import dev.baton.impl.time.EngineTime;
import dev.baton.impl.time.FairPermit;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The local queue of one key: the threads of this JVM that want the key wait here, in arrival order,
 * so only one of them (the contender) talks to the store at a time, and a local release hands the key
 * to the next local waiter at once. The permit is held from the start of contention until release,
 * and may be released by another thread than the one that took it (transaction completion).
 *
 * <p>The gate is its own permit (one object per key in use: a gate holding a fair semaphore would be three, a
 * gate that is a semaphore two); nothing outside this package sees it, and it is never serialized.
 */
final class KeyGate extends FairPermit {

    private static final long serialVersionUID = 1L;

    private static final VarHandle HOLDER;
    private static final VarHandle SIDE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HOLDER = lookup.findVarHandle(KeyGate.class, "holder", HeldLock.class);
            SIDE = lookup.findVarHandle(KeyGate.class, "side", Side.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The holders and waiters of the key outside its local queue: shared leases (several may hold the key at
     * once, so none of them takes the queue's permit) and asynchronous acquisitions (which hold no thread to
     * queue with). The store decides between them and the queue's contender.
     */
    private static final class Side {
        final Set<HeldLock> holders = ConcurrentHashMap.newKeySet();
        /** What wakes each waiting one: an unpark, or the next attempt of an asynchronous one. */
        final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();
        /** The hand-over tickets of the threads in the local queue, by thread ({@link HandOverTicket}). */
        final Map<Thread, HandOverTicket> tickets = new ConcurrentHashMap<>();
    }

    /** Engine bookkeeping: how many threads use this gate; the gate leaves the map at zero. */
    transient int users;

    private transient volatile Thread contender;
    /** The lock held through this gate: the engine's list of its held locks ({@link KeyGates}). */
    private transient volatile HeldLock holder;
    /** Made when a shared or asynchronous acquisition first uses the key: most gates never need it. */
    private transient volatile Side side;

    boolean tryEnter(EngineTime time, long timeoutNanos) throws InterruptedException {
        return time.tryAcquire(this, timeoutNanos);
    }

    /**
     * Takes the permit if it is free and nobody waits for it (in turn: never past a queued thread), without waiting.
     *
     * @return true if taken
     * @throws InterruptedException if the calling thread is interrupted
     */
    boolean tryEnterNow() throws InterruptedException {
        return tryTake(0);
    }

    void leave() {
        give();
    }

    void contending(Thread thread) {
        contender = thread;
    }

    /**
     * Called when the store says the key was released somewhere, or a lock of this JVM on it was: the contender
     * and the waiters outside the queue retry at once.
     */
    void wakeContender() {
        Thread thread = contender;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
        wakeBeside();
    }

    /** Wakes the waiters beside the queue only: after a release through the queue, whose next waiter is handed the permit. */
    void wakeBeside() {
        Side s = side;
        if (s != null) {
            s.waiters.forEach(Runnable::run);
        }
    }

    /** Registers a waiter outside the queue, woken by {@link #wakeContender()} until it is removed. */
    void waitBeside(Runnable wake) {
        side().waiters.add(wake);
    }

    void stopWaitingBeside(Runnable wake) {
        side().waiters.remove(wake);
    }

    /** Lists a lock held outside the queue. */
    void holdBeside(HeldLock lock) {
        side().holders.add(lock);
    }

    /** @return the locks held through this gate: its holder and those held beside the queue */
    Stream<HeldLock> heldLocks() {
        HeldLock h = holder;
        Side s = side;
        if (s == null || s.holders.isEmpty()) {
            return h == null ? Stream.empty() : Stream.of(h);
        }
        return h == null ? s.holders.stream() : Stream.concat(Stream.of(h), s.holders.stream());
    }

    /** @return a lock of this key bound to {@code thread} (held in its synchronous work), or null */
    HeldLock heldBy(Thread thread) {
        HeldLock h = holder;
        if (h != null && h.boundThread() == thread) {
            return h;
        }
        Side s = side;
        if (s != null) {
            for (HeldLock lock : s.holders) {
                if (lock.boundThread() == thread) {
                    return lock;
                }
            }
        }
        return null;
    }

    /** Offers the calling thread's ticket while it waits in the queue; {@link #withdraw} when it stops. */
    void offer(HandOverTicket ticket) {
        side().tickets.put(ticket.thread, ticket);
    }

    void withdraw(HandOverTicket ticket) {
        side().tickets.remove(ticket.thread, ticket);
    }

    /**
     * Called by the permit's holder as it releases: claims the ticket of the thread that would take the permit
     * next, the queue's first.
     *
     * @return the claimed ticket, or null when the first thread offers none (or the queue is empty)
     */
    HandOverTicket claimNext() {
        Side s = side;
        if (s == null || s.tickets.isEmpty()) {
            return null;
        }
        Thread first = getFirstQueuedThread();
        HandOverTicket ticket = first == null ? null : s.tickets.get(first);
        return ticket != null && ticket.claim() ? ticket : null;
    }

    /** The permit passed with a handed-over key ({@link HandOverTicket#handed}) is taken by its ticket's thread. */
    @Override
    protected boolean passedToCaller() {
        Side s = side;
        if (s == null) {
            return false;
        }
        HandOverTicket ticket = s.tickets.get(Thread.currentThread());
        return ticket != null && ticket.take();
    }

    private Side side() {
        Side s = side;
        if (s == null) {
            Side made = new Side();
            s = SIDE.compareAndSet(this, (Side) null, made) ? made : side;
        }
        return s;
    }

    HeldLock holder() {
        return holder;
    }

    /** Called with the gate's permit taken, so no other lock is the holder. */
    void holder(HeldLock lock) {
        holder = lock;
    }

    /**
     * @return true if {@code lock} was the holder and is not any more; false if it was not (already cleared):
     *     of two threads that clear it, one is told true
     */
    boolean clearHolder(HeldLock lock) {
        if (HOLDER.compareAndSet(this, lock, (HeldLock) null)) {
            return true;
        }
        Side s = side;
        return s != null && s.holders.remove(lock);
    }
}
