package dev.baton.spi;

/** What a {@link LockStore} offers beyond its three operations. The TCK tests what a store declares. */
public enum StoreCapability {

    /**
     * Locks and fencing counters outlive the store instance: a new instance on the same backend (an
     * application restart) sees locks that are still live and continues above every earlier token.
     * Not together with {@link #ENDS_WITH_CONNECTION}.
     */
    PERSISTENT,

    /** {@link AcquireResult#notAcquired(long)} reports the holder's remaining lease. */
    REMAINING_LEASE,

    /**
     * {@link LockStore#renewAll} renews many locks in one round trip. The runtime then renews the locks
     * of one ttl that fall due close together in one call, and relies on the returned set: a lease
     * missing from it is lost at once.
     */
    BATCH_RENEW,

    /** {@link LockStore#onRelease} tells waiters of releases. */
    RELEASE_NOTIFICATION,

    /**
     * {@link LockStore#acquire(Acquisition)} keeps each key's next turn for its
     * longest waiter (see {@link Turn}), and every acquisition, with or without a turn, leaves a free key
     * to the waiter whose turn it is while that turn lasts. Waiters of all processes then take a
     * contended key in about the order they began to wait.
     */
    WAITING_TURNS,

    /**
     * Keys may contain {@code U+0000}, stored exactly. Without it, such keys are rejected with
     * {@link IllegalArgumentException}.
     */
    NUL_IN_KEYS,

    /**
     * {@link LockStore#inspect(String)} tells a key's live holder: its owner, fencing token and remaining
     * lease. The runtime builds {@code Locks.inspect} and the administrative {@code Locks.forceRelease} on
     * it (a forced release is {@link LockStore#release} with the inspected owner, so it is the same
     * compare-and-set as any release).
     */
    INSPECT,

    /**
     * A lock lives on a connection of the store instance that took it (a database advisory lock): the
     * backend ends it at once when that connection ends (the instance is closed, its process dies, the
     * connection drops), with no ttl to wait out. So locks do not outlive the instance, only fencing counters
     * do: a new instance on the same backend continues above every earlier token and takes the closed
     * instance's keys at once. Only the instance that took a lock renews or releases it (through another
     * instance both answer false). The ttl is kept by the holding instance: a lock it does not renew within
     * its ttl it ends itself, and a renewal checks that the connection still holds the lock, so a holder
     * learns of a lost connection at its next renewal. Not together with {@link #PERSISTENT}; the TCK runs
     * its rules for this capability instead of those for {@code PERSISTENT}.
     */
    ENDS_WITH_CONNECTION,

    /**
     * A key may be held by several shared leases at once ({@link Acquisition#sharedLimit()}): permits and read
     * locks. {@link LockStore#acquire} takes a shared lease while no live exclusive lease and fewer than the
     * request's limit of live shared leases hold the key, and an exclusive one only while no live lease of either
     * kind does, all in its one atomic operation; each lease has its own owner, fencing token (greater than every
     * earlier token of the key, shared or not) and expiry, and is renewed, released and expires alone. Waiting
     * turns apply to shared acquisitions as to exclusive ones, so a waiting exclusive acquisition that holds the
     * key's turn keeps new shared ones out until the shared leases are gone: writers are not starved by a
     * stream of readers. A store that declares it also declares {@link #WAITING_TURNS}.
     */
    SHARED_LOCKS,

    /**
     * {@link LockStore#handOver} passes an exclusive lock from its owner to the next caller in one atomic step (one
     * round trip): the runtime calls it when it releases a lock that another caller of the same process waits for,
     * instead of a release and that caller's acquisition. Without it the runtime never calls {@code handOver}. A
     * store may add it once it has connected and knows its backend (the JPA store on PostgreSQL).
     */
    HAND_OVER
}
