package dev.baton.impl.engine;

import dev.baton.impl.logging.BatonLog;
import dev.baton.spi.AcquireResult;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One acquisition's passage through its key's gate, from joining the key's local queue to leaving it:
 * the gate is given back at the end ({@link #end}) unless a lock was taken, which keeps it until it is
 * released ({@link LockEngine#forget}).
 */
final class GatePass {
    private final LockEngine engine;
    private final KeyGates gates;
    final String key;
    final String storeKey;
    final KeyGate gate;
    /** Whether it waits and holds beside the local queue (shared and asynchronous acquisitions), without its permit. */
    final boolean beside;
    /** What wakes it while it waits beside the queue. */
    private Runnable wake;
    /** Whether this acquisition got to the front of the local queue. */
    private boolean entered;
    /** The lock taken, if any. */
    private HeldLock lock;
    /** The ticket of a key handed over as this acquisition entered the gate, until taken. */
    private HandOverTicket handedOver;

    /** Joins the key's gate, unless the engine is shut down. */
    GatePass(LockEngine engine, KeyGates gates, String key, String storeKey, boolean beside) {
        if (engine.isClosed()) {
            throw engine.shutDown(key);
        }
        this.engine = engine;
        this.gates = gates;
        this.beside = beside;
        this.key = key;
        this.storeKey = storeKey;
        this.gate = gates.enter(storeKey);
    }

    /**
     * @return whether this acquisition got to the front of the local queue within {@code timeoutNanos}; one
     *     beside the queue does not queue
     */
    boolean tryEnter(long timeoutNanos) throws InterruptedException {
        if (beside) {
            return true;
        }
        entered = gate.tryEnter(engine.time(), timeoutNanos);
        return entered;
    }

    /**
     * As {@link #tryEnter}, offering to take the key straight from the lock this acquisition waits for, if that is
     * a lock of this JVM and the store hands keys over ({@link HandOverTicket}).
     *
     * @return whether this acquisition got to the front of the local queue; if with the key handed over,
     *     {@link #takeHandedOver} takes it
     */
    boolean tryEnterOrTakeOver(long timeoutNanos, long ttlMillis) throws InterruptedException {
        if (gate.tryEnterNow()) {
            entered = true; // nobody holds it here: no ticket (a ticket, its owner token and the gate's side cost)
            return true;
        }
        HandOverTicket ticket = new HandOverTicket(Thread.currentThread(), OwnerTokens.next(), ttlMillis);
        gate.offer(ticket);
        try {
            entered = gate.tryEnter(engine.time(), timeoutNanos);
        } catch (InterruptedException e) {
            if (!ticket.leave() && ticket.awaitOutcome()) {
                entered = true; // the key was handed over meanwhile: given back, and the gate left, by end()
                giveBack(ticket.owner);
            }
            throw e;
        } finally {
            gate.withdraw(ticket);
        }
        if (!entered && !ticket.leave()) {
            entered = ticket.awaitOutcome(); // claimed as it timed out: handed over, or passed on to the queue
        }
        if (ticket.isTaken()) {
            handedOver = ticket;
        } else if (entered) {
            ticket.leave(); // entered as usual: nobody claims it any more (only the permit's holder does)
        }
        return entered;
    }

    /**
     * @return the lock handed over to this acquisition as it entered ({@link #tryEnterOrTakeOver}), or null if none
     *     was (or it came too late and was given back, see {@link #take}): the acquisition then asks the store
     */
    HeldLock takeHandedOver(Thread boundThread) {
        HandOverTicket ticket = handedOver;
        if (ticket == null) {
            return null;
        }
        handedOver = null;
        return take(ticket.owner, ticket.result(), ticket.ttlMillis, ticket.sentAt(), ticket.answeredAt(), boundThread);
    }

    /** Starts waiting for the store to have room: woken by releases, as the queue's contender or beside it. */
    void startWaiting(Runnable wakeBeside) {
        if (beside) {
            wake = wakeBeside;
            gate.waitBeside(wake);
        } else {
            gate.contending(Thread.currentThread());
        }
    }

    void stopWaiting() {
        if (beside) {
            if (wake != null) {
                gate.stopWaitingBeside(wake);
            }
        } else {
            gate.contending(null);
        }
    }

    /** @return the remaining lease of the key's holder in this JVM at {@code now}, when there is one */
    OptionalLong localLease(long now) {
        HeldLock local = gate.holder();
        return local == null
                ? OptionalLong.empty()
                : OptionalLong.of(Math.max(0, TimeUnit.NANOSECONDS.toMillis(local.leaseEndNanos() - now)));
    }

    /**
     * Holds what the store acquired for {@code owner}, unless its answer came back after a whole ttl: the
     * lease counts from when the call was sent, so it is already over and another owner may hold the key by
     * now. Such an acquisition is given back and counts as not acquired ({@code BATON-010}).
     *
     * @return the lock held, or null when given back
     */
    HeldLock take(
            String owner, AcquireResult result, long ttlMillis, long sentAt, long answeredAt, Thread boundThread) {
        long took = answeredAt - sentAt;
        if (took >= TimeUnit.MILLISECONDS.toNanos(ttlMillis)) {
            BatonLog.acquiredTooLate(engine.logKeys(), key, TimeUnit.NANOSECONDS.toMillis(took), ttlMillis);
            giveBack(owner);
            return null;
        }
        lock = engine.holding(new HeldLock(
                engine, gate, key, storeKey, owner, result.fencingToken(), ttlMillis, sentAt, boundThread, beside));
        return lock;
    }

    /** Releases an acquisition that is not handed out, best-effort: it expires by itself anyway. */
    private void giveBack(String owner) {
        try {
            engine.store().release(storeKey, owner);
        } catch (RuntimeException e) {
            BatonLog.releaseFailed(engine.logKeys(), key, e);
        }
    }

    /**
     * @return {@code taken}, unless the engine was shut down meanwhile: {@code close()} may have listed the
     *     held locks before this one joined them, so nobody else would release it. Whoever releases it first
     *     (here or {@code close()}) also gives the gate back.
     */
    HeldLock handOut(HeldLock taken) {
        if (taken != null && engine.isClosed()) {
            taken.close();
            throw engine.shutDown(key);
        }
        return taken;
    }

    /** Leaves the gate, unless a lock was taken: that keeps it until released. */
    void end() {
        if (lock == null) {
            if (entered) {
                gate.leave();
            }
            gates.exit(storeKey, gate);
        }
    }
}
