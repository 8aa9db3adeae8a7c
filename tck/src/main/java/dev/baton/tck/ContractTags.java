package dev.baton.tck;

/**
 * The JUnit 5 tags of the store contract suite, one per group of rules. Run a subset with
 * {@code mvn test -Dgroups=acquire,keys} or leave one out with {@code -DexcludedGroups=concurrency}.
 */
public final class ContractTags {

    /** Every test of {@link LockStoreContract}. */
    public static final String STORE_CONTRACT = "store-contract";

    /** Taking free, live, released and expired keys; the remaining lease of a refusal. */
    public static final String ACQUIRE = "acquire";

    /** Exactly one winner among many threads racing on free and expired keys, one key or many. */
    public static final String CONCURRENCY = "concurrency";

    /** Fencing tokens strictly increase per key, across release and expiry. */
    public static final String FENCING = "fencing";

    /** A new store instance on the same backend: tokens continue, live locks stay. Only for {@code PERSISTENT} stores. */
    public static final String PERSISTENCE = "persistence";

    /**
     * Locks end with the taking instance's connection: tokens continue in a new instance, which takes the closed
     * one's keys at once; only the taking instance renews or releases. Only for {@code ENDS_WITH_CONNECTION} stores.
     */
    public static final String ENDS_WITH_CONNECTION = "ends-with-connection";

    /** Renewal is a compare-and-set: the holder's only, never revives an expired lock; {@code renewAll}. */
    public static final String RENEW = "renew";

    /** Release is a compare-and-set: the holder's only, never deletes a successor's lock. */
    public static final String RELEASE = "release";

    /** Keys are kept exactly apart (case, spaces, normal forms, long and multibyte keys, NUL where declared). */
    public static final String KEYS = "keys";

    /** Ttls of 1 ms, 30 days and the maximum work. */
    public static final String DURATIONS = "durations";

    /** Owners are compared exactly, up to the longest owner. */
    public static final String OWNERS = "owners";

    /** A closed store fails every operation with a {@code LockStoreException}, and a second close does nothing. */
    public static final String CLOSE = "close";

    /** Waiting turns: a key's turn belongs to its longest waiter. Only for {@code WAITING_TURNS} stores. */
    public static final String TURNS = "turns";

    /**
     * Shared leases: permits up to a limit and read locks, kept apart from exclusive leases, each lease renewed,
     * released and expiring alone, turns keeping readers out while a writer waits. Only for {@code SHARED_LOCKS}
     * stores.
     */
    public static final String SHARED = "shared";

    /**
     * Hand-over: a held key passes to the next acquisition in one atomic step, with a greater token, unless another
     * waiter's turn keeps it. Only for {@code HAND_OVER} stores.
     */
    public static final String HAND_OVER = "handover";

    /** Inspection: a key's live holder, exactly, changing nothing; freeing a key as its inspected owner. Only for {@code INSPECT} stores. */
    public static final String INSPECT = "inspect";

    /**
     * The store properties ({@code dev.baton.tck.properties.StoreProperties}): random sequences of calls against an
     * executable model of the contract, an optional group a store author runs beside the contract suite.
     */
    public static final String PROPERTIES = "properties";

    /** Optional capabilities, each tested only when the store declares it. */
    public static final String CAPABILITIES = "capabilities";

    private ContractTags() {}
}
