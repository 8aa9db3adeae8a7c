package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static dev.baton.tck.ContractSupport.randomInt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link StoreCapability#SHARED_LOCKS}, run only for stores that declare it: a shared acquisition
 * with limit N is taken while no exclusive lease and fewer than N shared leases hold the key, also under racing
 * callers; exclusive and shared leases never hold a key together; each lease has its own token, above every
 * earlier one of the key, and is renewed, released and expires alone; every acquisition is judged by its own
 * limit; turns keep readers out while a writer waits; and a refusal, a release and an inspection say what the
 * shared leases of the key are.
 *
 * <p>Run by {@link LockStoreContract.SharedLocks}, tagged {@value ContractTags#SHARED}.
 */
abstract class SharedLockRules extends ContractRules {

    /** A turn that outlives every test, in ms. */
    private static final long LONG_KEEP = 60_000;

    @BeforeEach
    void onlyWhereDeclared() {
        assumeCapability(StoreCapability.SHARED_LOCKS);
    }

    // ---------------------------------------------------------------- steps

    /** A shared acquisition without a turn, with the store's own bound. */
    private static Acquisition shared(String key, String owner, long ttl, int limit) {
        return new Acquisition(key, owner, ttl, LockArguments.STORE_BOUND, null, limit);
    }

    private AcquireResult tryShared(String key, String owner, long ttl, int limit) {
        return store().acquire(shared(key, owner, ttl, limit));
    }

    /** Takes a shared lease and asserts it worked; returns the token. */
    private long sharedAcquired(String key, String owner, long ttl, int limit) {
        AcquireResult result = tryShared(key, owner, ttl, limit);
        assertThat(result.isAcquired())
                .as(
                        "a shared acquire of %s with limit %s (ttl %d ms) must succeed: %s",
                        describe(key), limit(limit), ttl, result)
                .isTrue();
        assertThat(result.fencingToken()).as("fencing token").isPositive();
        return result.fencingToken();
    }

    /** Takes {@code count} shared leases with {@code limit}, each for a new owner; returns the owners. */
    private List<String> sharedHolders(String key, int count, int limit) {
        List<String> owners = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String owner = newOwner();
            sharedAcquired(key, owner, LONG_TTL, limit);
            owners.add(owner);
        }
        return owners;
    }

    /** Asserts that a new owner's shared acquisition with {@code limit} is refused now. */
    private void assertSharedRefused(String key, int limit, String why) {
        AcquireResult result = tryShared(key, newOwner(), LONG_TTL, limit);
        assertThat(result.isAcquired())
                .as(
                        "%s: a shared acquire of %s with limit %s must be refused, but got %s",
                        why, describe(key), limit(limit), result)
                .isFalse();
    }

    private void assertReleased(String key, String owner, String whose) {
        assertThat(store().release(key, owner))
                .as("the release of %s's lease of %s must answer true", whose, describe(key))
                .isTrue();
    }

    private static String limit(int limit) {
        return limit == Acquisition.UNLIMITED ? "UNLIMITED" : String.valueOf(limit);
    }

    // ---------------------------------------------------------------- the limit

    @Test
    @TckRule(id = "S-3.6-01", spec = "spec-store-shared-limit")
    void aSharedKeyIsTakenUpToItsLimitAndRefusedBeyond() {
        for (int limit : new int[] {1, 2, 5}) {
            String key = key("limit-" + limit);
            List<String> holders = sharedHolders(key, limit, limit);

            assertSharedRefused(key, limit, limit + " holders of limit " + limit);
            String refused = newOwner();
            assertThat(tryShared(key, refused, LONG_TTL, limit).isAcquired())
                    .as("a second try beyond the limit of %d", limit)
                    .isFalse();
            assertThat(store().release(key, refused))
                    .as("the refused owner holds no lease to release")
                    .isFalse();
            for (String holder : holders) {
                assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                        .as("the refusals changed nothing: each of the %d holders still renews its lease", limit)
                        .isTrue();
            }

            assertReleased(key, holders.get(0), "the first holder");
            sharedAcquired(key, newOwner(), LONG_TTL, limit);
            assertSharedRefused(key, limit, "the one place freed by a release was taken again");
        }
    }

    @Test
    @TckRule(id = "S-3.6-02", spec = "spec-store-shared-limit")
    void aReadLockAdmitsEveryReaderAndEachLimitIsJudgedOnItsOwn() {
        String key = key("read");
        int readers = 100;
        List<String> holders = sharedHolders(key, readers, Acquisition.UNLIMITED);

        assertHeld(key, readers + " readers hold the key");
        assertSharedRefused(key, readers, readers + " leases fill a limit of " + readers);
        sharedAcquired(key, newOwner(), LONG_TTL, readers + 2);
        sharedAcquired(key, newOwner(), LONG_TTL, Acquisition.UNLIMITED);
        assertSharedRefused(key, readers + 2, (readers + 2) + " leases fill a limit of " + (readers + 2));
        for (String holder : holders) {
            assertReleased(key, holder, "a reader");
        }
        assertHeld(key, "two readers are left");
    }

    @Test
    @TckRule(id = "S-3.6-03", spec = "spec-store-shared-lowered-limit")
    void aLoweredLimitKeepsTheHoldersAboveItAndAdmitsNobodyUntilFewerHold() {
        String key = key("lowered");
        List<String> holders = sharedHolders(key, 4, 4);

        assertSharedRefused(key, 2, "four holders, the limit lowered to 2");
        assertReleased(key, holders.get(0), "a holder");
        assertSharedRefused(key, 2, "three holders, the limit lowered to 2");
        assertReleased(key, holders.get(1), "a holder");
        assertSharedRefused(key, 2, "two holders, the limit lowered to 2");
        for (String holder : holders.subList(2, 4)) {
            assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                    .as("a holder above the lowered limit keeps its lease")
                    .isTrue();
        }
        assertReleased(key, holders.get(2), "a holder");

        sharedAcquired(key, newOwner(), LONG_TTL, 2);
        assertSharedRefused(key, 2, "two holders again, at the lowered limit of 2");
        sharedAcquired(key, newOwner(), LONG_TTL, 3);
    }

    // ---------------------------------------------------------------- exclusive against shared

    @Test
    @TckRule(id = "S-3.6-04", spec = "spec-store-shared-exclusion")
    void anExclusiveLeaseKeepsSharedOnesOutAndTheReverse() {
        String writerFirst = key("exclusive-first");
        String writer = newOwner();
        acquired(writerFirst, writer, LONG_TTL);
        assertSharedRefused(writerFirst, Acquisition.UNLIMITED, "an exclusive lease holds the key");
        assertSharedRefused(writerFirst, 5, "an exclusive lease holds the key");
        assertReleased(writerFirst, writer, "the exclusive holder");
        sharedAcquired(writerFirst, newOwner(), LONG_TTL, 5);

        String readersFirst = key("shared-first");
        List<String> readers = sharedHolders(readersFirst, 2, 5);
        assertHeld(readersFirst, "two shared leases hold the key: an exclusive acquire must be refused");
        assertThat(store().acquire(Acquisition.of(readersFirst, readers.get(0), LONG_TTL))
                        .isAcquired())
                .as("nor may a shared holder take the key exclusively beside the other")
                .isFalse();
        assertReleased(readersFirst, readers.get(0), "the first reader");
        assertHeld(readersFirst, "one shared lease is left: an exclusive acquire must still be refused");
        assertReleased(readersFirst, readers.get(1), "the last reader");

        String next = newOwner();
        acquired(readersFirst, next, LONG_TTL);
        assertSharedRefused(readersFirst, Acquisition.UNLIMITED, "the key is exclusive again");
        assertReleased(readersFirst, next, "the exclusive holder");
    }

    // ---------------------------------------------------------------- racing callers

    /** Limits of the racing rounds: one place, a few, as many as racers, and a read lock. */
    private static final int[] RACE_LIMITS = {1, 2, 3, 5, RACERS, Acquisition.UNLIMITED};

    @Test
    @TckRule(id = "S-3.6-05", spec = "spec-store-shared-atomic")
    void racingSharedCallersTakeExactlyTheLimit() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            keys.add(key("race-" + round));
        }
        AcquireResult[][] results = new AcquireResult[ROUNDS][RACERS];

        ContractSupport.race(RACERS, ROUNDS, scaled(6 * BOUND_MILLIS), (round, racer) -> {
            int limit = RACE_LIMITS[round % RACE_LIMITS.length];
            results[round][racer] = store().acquire(shared(keys.get(round), newOwner(), LONG_TTL, limit));
        });

        for (int round = 0; round < ROUNDS; round++) {
            int limit = RACE_LIMITS[round % RACE_LIMITS.length];
            List<Long> tokens = Arrays.stream(results[round])
                    .filter(AcquireResult::isAcquired)
                    .map(AcquireResult::fencingToken)
                    .toList();
            assertThat(tokens)
                    .as(
                            "winners among %d racers for %s with limit %s (round %d)",
                            RACERS, describe(keys.get(round)), limit(limit), round)
                    .hasSize(Math.min(limit, RACERS))
                    .doesNotHaveDuplicates();
            if (limit <= RACERS) {
                assertSharedRefused(keys.get(round), limit, "after the race of round " + round);
            }
        }
    }

    @Test
    @TckRule(id = "S-3.6-06", spec = "spec-store-shared-atomic")
    void anExclusiveCallerRacingSharedOnesWinsAloneOrLoses() throws Exception {
        int limit = 3;
        List<String> keys = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            keys.add(key("mixed-" + round));
        }
        AcquireResult[][] results = new AcquireResult[ROUNDS][RACERS];

        // In each round one racer (a different one each round) asks exclusively, the others with limit 3.
        ContractSupport.race(RACERS, ROUNDS, scaled(6 * BOUND_MILLIS), (round, racer) -> {
            int sharedLimit = racer == round % RACERS ? Acquisition.EXCLUSIVE : limit;
            results[round][racer] = store().acquire(shared(keys.get(round), newOwner(), LONG_TTL, sharedLimit));
        });

        for (int round = 0; round < ROUNDS; round++) {
            int writer = round % RACERS;
            boolean writerWon = results[round][writer].isAcquired();
            int readersWon = 0;
            for (int racer = 0; racer < RACERS; racer++) {
                readersWon += racer != writer && results[round][racer].isAcquired() ? 1 : 0;
            }
            assertThat(readersWon)
                    .as(
                            "shared winners for %s (round %d) when the exclusive racer %s",
                            describe(keys.get(round)),
                            round,
                            writerWon ? "won: it must hold the key alone" : "lost: the limit fills up")
                    .isEqualTo(writerWon ? 0 : limit);
        }
    }

    @Test
    @TckRule(id = "S-3.6-07", spec = "spec-store-shared-atomic")
    void sharedAndExclusiveHoldersComingAndGoingNeverOverlap() throws Exception {
        String key = key("hot");
        int limit = 3;
        int wanted = 600;
        AtomicInteger sharedInside = new AtomicInteger();
        AtomicInteger exclusiveInside = new AtomicInteger();
        AtomicInteger sharedWins = new AtomicInteger();
        AtomicInteger exclusiveWins = new AtomicInteger();
        List<Long> tokens = new CopyOnWriteArrayList<>();
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

        // A quarter of the racers write, the others read with a limit; each counts itself in while it holds,
        // strictly within its lease, so overlapping counts are overlapping leases.
        ContractSupport.race(RACERS, 1, scaled(6 * BOUND_MILLIS), (round, racer) -> {
            boolean writer = racer % 4 == 0;
            while (sharedWins.get() + exclusiveWins.get() < wanted) {
                String owner = newOwner();
                AcquireResult result =
                        store().acquire(shared(key, owner, LONG_TTL, writer ? Acquisition.EXCLUSIVE : limit));
                if (!result.isAcquired()) {
                    LockSupport.parkNanos(20_000);
                    continue;
                }
                tokens.add(result.fencingToken());
                if (writer) {
                    if (exclusiveInside.incrementAndGet() != 1 || sharedInside.get() != 0) {
                        violations.add("exclusive token " + result.fencingToken() + " was granted beside "
                                + (exclusiveInside.get() - 1) + " exclusive and " + sharedInside.get()
                                + " shared holders");
                    }
                    exclusiveWins.incrementAndGet();
                    Thread.yield();
                    exclusiveInside.decrementAndGet();
                } else {
                    int inside = sharedInside.incrementAndGet();
                    if (inside > limit || exclusiveInside.get() != 0) {
                        violations.add("shared token " + result.fencingToken() + " was granted as holder #" + inside
                                + " of limit " + limit + " beside " + exclusiveInside.get() + " exclusive holders");
                    }
                    sharedWins.incrementAndGet();
                    Thread.yield();
                    sharedInside.decrementAndGet();
                }
                if (!store().release(key, owner)) {
                    violations.add("the holder of token " + result.fencingToken() + " could not release");
                }
            }
        });

        assertThat(violations)
                .as("%d racers, a quarter exclusive, the others shared with limit %d, on one key", RACERS, limit)
                .isEmpty();
        assertThat(sharedWins.get()).as("shared acquisitions").isPositive();
        assertThat(new HashSet<>(tokens))
                .as("distinct tokens among %d acquisitions", tokens.size())
                .hasSameSizeAs(tokens);
    }

    // ---------------------------------------------------------------- tokens

    @Test
    @TckRule(id = "S-3.6-08", spec = "spec-store-shared-tokens")
    void eachLeaseHasItsOwnTokenAboveEveryEarlierOneOfTheKey() {
        String key = key("tokens");
        List<Long> tokens = new ArrayList<>();
        List<String> sharedOwners = new ArrayList<>();
        int limit = 4;
        // Exclusive and shared leases in a random order, some held side by side: every token is above all before.
        for (int step = 0; step < 300; step++) {
            boolean full = sharedOwners.size() == limit;
            int choice = randomInt(4);
            if (sharedOwners.isEmpty() && choice == 0) {
                String owner = newOwner();
                tokens.add(acquired(key, owner, LONG_TTL));
                assertReleased(key, owner, "the exclusive holder");
            } else if (!full && choice != 3) {
                String owner = newOwner();
                tokens.add(sharedAcquired(key, owner, LONG_TTL, limit));
                sharedOwners.add(owner);
            } else if (!sharedOwners.isEmpty()) {
                assertReleased(key, sharedOwners.remove(randomInt(sharedOwners.size())), "a shared holder");
            }
        }
        for (String owner : sharedOwners) {
            assertReleased(key, owner, "a shared holder");
        }
        long beforeExpiry = acquired(key, newOwner(), SHORT_TTL);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));
        long shortShared = sharedAcquired(key, newOwner(), SHORT_TTL, limit);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));
        long afterExpiry = acquired(key, newOwner(), LONG_TTL);
        tokens.addAll(List.of(beforeExpiry, shortShared, afterExpiry));

        assertStrictlyIncreasing(tokens, "across exclusive and shared leases of one key, released and expired");
    }

    // ---------------------------------------------------------------- one lease at a time

    @Test
    @TckRule(id = "S-3.6-09", spec = "spec-store-shared-per-lease")
    void eachSharedLeaseIsReleasedAlone() {
        String key = key("release");
        List<String> holders = sharedHolders(key, 3, 3);
        String first = holders.get(0);
        String second = holders.get(1);
        String third = holders.get(2);

        assertReleased(key, second, "the second holder");
        assertThat(store().release(key, second))
                .as("a second release of the same shared lease")
                .isFalse();
        assertThat(store().renew(Renewal.of(key, second, LONG_TTL)))
                .as("the renewal of a released shared lease")
                .isFalse();
        assertThat(store().release(key, newOwner()))
                .as("the release by an owner that holds no lease of the key")
                .isFalse();
        assertThat(store().renew(Renewal.of(key, newOwner(), LONG_TTL)))
                .as("the renewal by an owner that holds no lease of the key")
                .isFalse();
        for (String holder : List.of(first, third)) {
            assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                    .as("a holder beside the released lease keeps its own")
                    .isTrue();
        }

        sharedAcquired(key, newOwner(), LONG_TTL, 3);
        assertSharedRefused(key, 3, "the release freed exactly one place");
        assertReleased(key, first, "the first holder");
        assertReleased(key, third, "the third holder");
        assertHeld(key, "the lease taken in the freed place is left");
    }

    @Test
    @TckRule(id = "S-3.6-10", spec = "spec-store-shared-per-lease")
    void renewingOneSharedLeaseExtendsItAlone() {
        String key = key("renew");
        long ttl = scaled(1_000).toMillis();
        String renewed = newOwner();
        String left = newOwner();
        sharedAcquired(key, renewed, ttl, 2);
        sharedAcquired(key, left, ttl, 2);

        assertThat(store().renew(Renewal.of(key, renewed, LONG_TTL)))
                .as("the renewal of one shared lease")
                .isTrue();
        pause(Duration.ofMillis(ttl).plus(scaled(200)));

        assertThat(store().renew(Renewal.of(key, left, LONG_TTL)))
                .as("the lease that was not renewed ran out at its own ttl and is not revived")
                .isFalse();
        assertThat(store().release(key, left)).as("nor released: it is gone").isFalse();
        sharedAcquired(key, newOwner(), LONG_TTL, 2);
        assertSharedRefused(key, 2, "the renewed lease outlived its first ttl and still counts");
        assertReleased(key, renewed, "the renewed holder");
    }

    @Test
    @TckRule(id = "S-3.6-11", spec = "spec-store-shared-per-lease")
    void renewAllRenewsExactlyTheSharedLeasesStillHeld() {
        String key = key("renew-all");
        long ttl = scaled(1_000).toMillis();
        List<String> holders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String owner = newOwner();
            sharedAcquired(key, owner, ttl, 5);
            holders.add(owner);
        }
        assertReleased(key, holders.get(3), "the fourth holder");
        Set<Lease> held =
                Set.of(new Lease(key, holders.get(0)), new Lease(key, holders.get(1)), new Lease(key, holders.get(2)));
        List<Lease> asked = new ArrayList<>(held);
        asked.add(new Lease(key, holders.get(3)));
        asked.add(new Lease(key, newOwner()));

        Set<Lease> renewed = store().renewAll(asked, LONG_TTL, LockArguments.STORE_BOUND);

        assertThat(renewed)
                .as("renewAll of three held shared leases of one key, a released one and a stranger's")
                .containsExactlyInAnyOrderElementsOf(held);
        pause(Duration.ofMillis(ttl).plus(scaled(200)));
        for (Lease lease : held) {
            assertThat(store().release(key, lease.owner()))
                    .as("each renewed shared lease outlived its first ttl")
                    .isTrue();
        }
    }

    // ---------------------------------------------------------------- expiry

    @Test
    @TckRule(id = "S-3.6-12", spec = "spec-store-shared-expiry")
    void anExpiredSharedLeaseNoLongerCounts() {
        // A holder that crashed: it neither renews nor releases, and its place must come back when its lease ends.
        String key = key("crashed");
        String crashed = newOwner();
        String alive = newOwner();
        sharedAcquired(key, crashed, SHORT_TTL, 2);
        sharedAcquired(key, alive, LONG_TTL, 2);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));

        sharedAcquired(key, newOwner(), LONG_TTL, 2);
        assertSharedRefused(key, 2, "the expired lease's place was taken again; the live lease still counts");
        assertThat(store().renew(Renewal.of(key, crashed, LONG_TTL)))
                .as("the renewal of an expired shared lease")
                .isFalse();
        assertThat(store().release(key, crashed))
                .as("the release of an expired shared lease")
                .isFalse();

        String readers = key("expired-readers");
        sharedAcquired(readers, newOwner(), SHORT_TTL, Acquisition.UNLIMITED);
        sharedAcquired(readers, newOwner(), SHORT_TTL, Acquisition.UNLIMITED);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));
        AcquireResult writer = store().acquire(Acquisition.of(readers, newOwner(), LONG_TTL));
        assertThat(writer.isAcquired())
                .as(
                        "expired shared leases no longer keep an exclusive acquire of %s out: %s",
                        describe(readers), writer)
                .isTrue();
    }

    // ---------------------------------------------------------------- turns

    private AcquireResult poll(String key, String owner, int sharedLimit, String waiter, long waitedMillis) {
        return store().acquire(new Acquisition(
                key, owner, LONG_TTL, 0, new Turn(waiter, waitedMillis, LONG_KEEP), sharedLimit));
    }

    @Test
    @TckRule(id = "S-3.6-13", spec = "spec-store-shared-turns")
    void aWaitingWriterHoldingTheTurnKeepsNewReadersOutAndGetsTheKeyWhenTheReadersAreGone() {
        String key = key("writer-waits");
        List<String> readers = sharedHolders(key, 2, Acquisition.UNLIMITED);
        String writer = newOwner();

        assertInTurn(poll(key, writer, Acquisition.EXCLUSIVE, "writer", 100), "the waiting writer", key);
        assertSharedRefused(key, Acquisition.UNLIMITED, "a new reader while the waiting writer holds the turn");
        assertRefusedWithoutTurn(
                poll(key, newOwner(), Acquisition.UNLIMITED, "reader", 0),
                "a reader that has waited less long than the writer",
                key);
        for (String reader : readers) {
            assertThat(store().renew(Renewal.of(key, reader, LONG_TTL)))
                    .as("the writer's turn does not hinder the readers' renewals")
                    .isTrue();
        }

        assertReleased(key, readers.get(0), "the first reader");
        assertInTurn(poll(key, writer, Acquisition.EXCLUSIVE, "writer", 200), "the writer, one reader left", key);
        assertReleased(key, readers.get(1), "the last reader");
        assertSharedRefused(key, Acquisition.UNLIMITED, "the readers are gone and the key is kept for the writer");
        AcquireResult taken = poll(key, writer, Acquisition.EXCLUSIVE, "writer", 300);
        assertThat(taken.isAcquired())
                .as("the writer takes the key once the readers are gone: %s", taken)
                .isTrue();

        assertSharedRefused(key, Acquisition.UNLIMITED, "the writer holds the key");
        assertReleased(key, writer, "the writer");
        sharedAcquired(key, newOwner(), LONG_TTL, Acquisition.UNLIMITED);
    }

    @Test
    @TckRule(id = "S-3.6-14", spec = "spec-store-shared-turns")
    void aSharedWaiterHoldingTheTurnTakesTheFirstPlaceFreed() {
        String key = key("reader-waits");
        List<String> holders = sharedHolders(key, 2, 2);
        String waiting = newOwner();

        assertInTurn(poll(key, waiting, 2, "reader", 100), "a shared waiter of the full key", key);
        assertReleased(key, holders.get(0), "a holder");
        assertSharedRefused(key, 2, "the freed place is kept for the waiter whose turn it is");
        AcquireResult taken = poll(key, waiting, 2, "reader", 200);
        assertThat(taken.isAcquired())
                .as("the shared waiter takes the freed place: %s", taken)
                .isTrue();
        assertSharedRefused(key, 2, "the key is full again");
    }

    // ---------------------------------------------------------------- what a refusal, a release, an inspection say

    @Test
    @TckRule(id = "S-3.6-15", spec = "spec-store-shared-remaining-lease")
    @Tag(ContractTags.CAPABILITIES)
    void aRefusalReportsWhenTheKeyWouldHaveRoom() {
        assumeCapability(StoreCapability.REMAINING_LEASE);
        long shorter = 10_000;
        long longer = 40_000;

        String exclusive = key("exclusive");
        acquired(exclusive, newOwner(), shorter);
        assertThat(remaining(tryShared(exclusive, newOwner(), LONG_TTL, Acquisition.UNLIMITED), exclusive))
                .as("a shared request refused by an exclusive lease of %d ms: its remaining lease", shorter)
                .isPositive()
                .isLessThanOrEqualTo(shorter);

        String readers = key("readers");
        sharedAcquired(readers, newOwner(), shorter, Acquisition.UNLIMITED);
        sharedAcquired(readers, newOwner(), longer, Acquisition.UNLIMITED);
        assertThat(remaining(store().acquire(Acquisition.of(readers, newOwner(), LONG_TTL)), readers))
                .as(
                        "an exclusive request refused by shared leases of %d and %d ms: the longest remaining lease",
                        shorter, longer)
                .isGreaterThan(shorter)
                .isLessThanOrEqualTo(longer);

        String full = key("full");
        sharedAcquired(full, newOwner(), longer, 2);
        sharedAcquired(full, newOwner(), shorter, 2);
        assertThat(remaining(tryShared(full, newOwner(), LONG_TTL, 2), full))
                .as(
                        "a shared request refused by a full key, leases of %d and %d ms: the shortest remaining lease",
                        longer, shorter)
                .isPositive()
                .isLessThanOrEqualTo(shorter);
    }

    private static long remaining(AcquireResult refused, String key) {
        assertThat(refused.isAcquired())
                .as("the request for %s must be refused", describe(key))
                .isFalse();
        assertThat(refused.remainingLeaseMillis())
                .as("REMAINING_LEASE is declared: a refusal reports how long until the key has room")
                .isPresent();
        return refused.remainingLeaseMillis().getAsLong();
    }

    @Test
    @TckRule(id = "S-3.6-16", spec = "spec-store-shared-release-notification")
    @Tag(ContractTags.CAPABILITIES)
    void theReleaseOfASharedLeaseIsNotified() throws Exception {
        assumeCapability(StoreCapability.RELEASE_NOTIFICATION);
        String key = key("notified");
        List<String> heard = new CopyOnWriteArrayList<>();
        // Releases through any instance on the backend are told: listen on another one where there are two.
        LockStore listening = declares(StoreCapability.PERSISTENT) ? newStore() : store();
        try (AutoCloseable handle = listening.onRelease(heard::add)) {
            List<String> holders = sharedHolders(key, 2, 2);

            assertReleased(key, holders.get(0), "one of two shared holders");

            waiting()
                    .alias("the listener is told of the release of a shared lease of " + describe(key))
                    .until(() -> heard.contains(key));
        }
    }

    @Test
    @TckRule(id = "S-3.6-17", spec = "spec-store-shared-inspect")
    @Tag(ContractTags.CAPABILITIES)
    void inspectReportsTheLiveSharedLeaseWithTheGreatestToken() {
        assumeCapability(StoreCapability.INSPECT);
        String key = key("inspected");
        List<String> owners = new ArrayList<>();
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String owner = newOwner();
            tokens.add(sharedAcquired(key, owner, LONG_TTL, Acquisition.UNLIMITED));
            owners.add(owner);
        }

        assertHolder(key, owners.get(2), tokens.get(2), "three shared leases");
        assertReleased(key, owners.get(2), "the newest holder");
        assertHolder(key, owners.get(1), tokens.get(1), "the newest lease released");
        assertReleased(key, owners.get(0), "the oldest holder");
        assertHolder(key, owners.get(1), tokens.get(1), "one lease left");
        assertReleased(key, owners.get(1), "the last holder");
        assertThat(store().inspect(key))
                .as("inspect of %s once every shared lease is released", describe(key))
                .isEmpty();

        String expiring = key("newest-expires");
        String lasting = newOwner();
        long lastingToken = sharedAcquired(expiring, lasting, LONG_TTL, Acquisition.UNLIMITED);
        sharedAcquired(expiring, newOwner(), SHORT_TTL, Acquisition.UNLIMITED);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));
        assertHolder(expiring, lasting, lastingToken, "the newest lease expired");
    }

    private void assertHolder(String key, String owner, long token, String when) {
        Holder holder = store().inspect(key)
                .orElseThrow(() -> new AssertionError(
                        "inspect of " + describe(key) + " (" + when + ") must report a holder, but reported none"));
        assertThat(holder.owner())
                .as("%s: the owner of the live shared lease with the greatest token", when)
                .isEqualTo(owner);
        assertThat(holder.fencingToken()).as("%s: its token", when).isEqualTo(token);
        assertThat(holder.remainingLeaseMillis())
                .as("%s: the remaining lease of its %d ms lease", when, LONG_TTL)
                .isPositive()
                .isLessThanOrEqualTo(LONG_TTL);
    }
}
