package dev.baton.etcd.internal;

import dev.baton.LockStoreException;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.NoSuchLeaseException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store instance's etcd lease, granted at the first call that needs it and granted again after the server let
 * it expire. Every lock of the store is an etcd key bound to one {@link Lease}: when the lease ends (expired by the
 * server, or revoked when the store closes), the server deletes the keys, and the locks are lost.
 *
 * <h2>When a lock is lost for its holder</h2>
 * The server expires a lease {@code T} (its ttl) after the last keep-alive it received; a keep-alive sent at
 * {@code t} whose answer came back proves that the lease lives until {@code t + T} at least (a new leader even
 * gives every lease a full {@code T} again). The lease keeps the send time of the latest keep-alive answered
 * ({@link Lease#answered}), sending one every {@code T/6}, and counts its locks lost ({@link Lease#mayHaveExpired})
 * once {@code 2T/3} have passed since: a third of the ttl before the server may delete the keys, left for the
 * clocks' drift and the holder's own reaction.
 */
public final class EtcdSession implements AutoCloseable {

    private final Client client;
    private final long ttlSeconds;
    private final long operationTimeoutMillis;
    private final ScheduledExecutorService timer;
    private final String description;
    private final Object guard = new Object();
    /** Held while a lease is granted, so that concurrent first calls share one. */
    private final Object granting = new Object();

    private Lease current; // guarded
    private boolean closed; // guarded

    /**
     * @param client the client, closed with this session
     * @param ttlSeconds the lease's ttl to ask for (the server may give more)
     * @param operationTimeoutMillis how long the revocation at close may take
     * @param timer sends the keep-alives
     * @param description the store, for messages
     */
    public EtcdSession(
            Client client,
            long ttlSeconds,
            long operationTimeoutMillis,
            ScheduledExecutorService timer,
            String description) {
        this.client = client;
        this.ttlSeconds = ttlSeconds;
        this.operationTimeoutMillis = operationTimeoutMillis;
        this.timer = timer;
        this.description = description;
    }

    /** @return the client */
    public Client client() {
        return client;
    }

    /**
     * The live lease, granted if there is none.
     *
     * @param deadline {@link System#nanoTime()} by which a grant must have been answered
     * @return the lease
     * @throws LockStoreException if the store is closed or the grant failed
     */
    public Lease lease(long deadline) {
        Lease live = live();
        if (live != null) {
            return live;
        }
        synchronized (granting) {
            live = live();
            if (live != null) {
                return live;
            }
            long sentAt = System.nanoTime();
            LeaseGrantResponse granted;
            try {
                granted = EtcdCalls.await(client.getLeaseClient().grant(ttlSeconds), leftMillis(deadline));
            } catch (EtcdCalls.CallFailed e) {
                // a grant answered too late makes a lease no key is bound to: it expires by itself
                throw e.toStoreException(description + " could not get a lease");
            }
            Lease lease = new Lease(granted.getID(), TimeUnit.SECONDS.toMillis(granted.getTTL()));
            lease.answered(sentAt);
            synchronized (guard) {
                if (closed) {
                    client.getLeaseClient().revoke(lease.id);
                    throw new LockStoreException(description + " is closed");
                }
                current = lease;
            }
            lease.startKeepAlives();
            return lease;
        }
    }

    private Lease live() {
        synchronized (guard) {
            if (closed) {
                throw new LockStoreException(description + " is closed");
            }
            if (current != null && !current.expired && current.mayHaveExpired(System.nanoTime())) {
                // Its grace ran out: its locks count as lost, and no new lock may be bound to it (the server may let
                // it expire at any moment). Not revoked: that would free its keys before their holders are told.
                current.end();
            }
            return current != null && !current.expired ? current : null;
        }
    }

    /** Revokes the lease (the server deletes the store's keys at once) and closes the client. */
    @Override
    public void close() {
        Lease lease;
        synchronized (guard) {
            if (closed) {
                return;
            }
            closed = true;
            lease = current;
            current = null;
        }
        try {
            if (lease != null) {
                lease.end();
                try {
                    EtcdCalls.await(client.getLeaseClient().revoke(lease.id), operationTimeoutMillis);
                } catch (EtcdCalls.CallFailed e) {
                    // unreachable: the server expires the lease after its ttl, and the keys with it
                }
            }
        } finally {
            client.close();
        }
    }

    private static long leftMillis(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    /** One lease: the locks bound to it live and die with it. */
    public final class Lease {

        private final long id;
        private final long ttlMillis;
        /** {@link System#nanoTime()} at which the latest keep-alive (or the grant) that was answered was sent. */
        private final AtomicLong answeredSend = new AtomicLong();

        private volatile boolean expired;
        private volatile ScheduledFuture<?> keepAlives;

        private Lease(long id, long ttlMillis) {
            this.id = id;
            this.ttlMillis = Math.max(1_000, ttlMillis);
        }

        /** @return the lease's id */
        public long id() {
            return id;
        }

        /** @return whether the lease is over: the server said so, or the store closed */
        public boolean expired() {
            return expired;
        }

        /** Records that the server said the lease is gone: every lock bound to it is lost. */
        public void gone() {
            end();
        }

        /**
         * Records that a request sent at {@code sentAt} renewed the lease.
         *
         * @param sentAt its {@link System#nanoTime()} when sent
         */
        void answered(long sentAt) {
            answeredSend.accumulateAndGet(sentAt, Math::max);
        }

        /**
         * Whether the server may have let the lease expire, so its locks may be another's: it is over, or no
         * keep-alive sent in the last two thirds of the ttl was answered (see the class comment).
         *
         * @param now {@link System#nanoTime()}
         * @return true if the locks of this lease can no longer be counted on
         */
        public boolean mayHaveExpired(long now) {
            return expired || graceLeftNanos(now) == 0;
        }

        /**
         * @param now {@link System#nanoTime()}
         * @return how long the lease's locks may yet be counted on without another answer, in nanoseconds
         */
        public long graceLeftNanos(long now) {
            return Math.max(0, answeredSend.get() + TimeUnit.MILLISECONDS.toNanos(ttlMillis * 2 / 3) - now);
        }

        private void startKeepAlives() {
            long period = Math.max(1, ttlMillis / 6);
            try {
                keepAlives = timer.scheduleWithFixedDelay(this::keepAlive, period, period, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // the store closed meanwhile
            }
            if (expired) {
                end();
            }
        }

        private void keepAlive() {
            if (expired) {
                end();
                return;
            }
            long sentAt = System.nanoTime();
            client.getLeaseClient().keepAliveOnce(id).whenComplete((answer, failure) -> {
                if (answer != null) {
                    if (answer.getTTL() > 0) {
                        answered(sentAt);
                    } else {
                        end(); // the server no longer knows the lease
                    }
                } else if (failure instanceof NoSuchLeaseException
                        || failure.getCause() instanceof NoSuchLeaseException
                        || EtcdCalls.leaseGone(failure)) {
                    end();
                }
                // any other failure: the next keep-alive tries again, and the grace tells how long the locks last
            });
        }

        private void end() {
            expired = true;
            ScheduledFuture<?> k = keepAlives;
            if (k != null) {
                k.cancel(false);
            }
        }

        @Override
        public String toString() {
            return "lease " + Long.toHexString(id) + (expired ? " (over)" : "");
        }
    }
}
