package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.redis.testing.StoresOnTestRedis;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shared leases ({@link StoreCapability#SHARED_LOCKS}: permits and read locks) on the test Redis, through two
 * store instances on one key prefix (two application instances): the limit, each lease's own owner, token and
 * expiry, the remaining lease a refusal reports, turns, notification; and, with real threads over many rounds,
 * that a key never has more shared holders than the limit, never an exclusive holder beside a shared one, that
 * tokens only grow across both kinds, and that a writer waiting its turn is not starved by readers.
 */
class SharedLeasesTest {

    private static final long LONG_TTL = 60_000;

    private StoresOnTestRedis admin;
    private RedisLockStore store;
    private RedisLockStore other;

    @BeforeEach
    void connect() {
        admin = new StoresOnTestRedis("shared");
        store = admin.store("baton-shared-1");
        other = admin.store("baton-shared-2");
    }

    @AfterEach
    void close() {
        admin.close();
    }

    private static String key(String name) {
        return name + ":" + UUID.randomUUID();
    }

    private static String owner() {
        return "o-" + UUID.randomUUID();
    }

    private static Acquisition shared(String key, String owner, long ttlMillis, int limit) {
        return new Acquisition(key, owner, ttlMillis, LockArguments.STORE_BOUND, null, limit);
    }

    private static Acquisition polling(String key, String owner, Turn turn, int sharedLimit) {
        return new Acquisition(key, owner, LONG_TTL, 0, turn, sharedLimit);
    }

    private long taken(RedisLockStore on, Acquisition acquisition) {
        AcquireResult result = on.acquire(acquisition);
        assertThat(result.isAcquired())
                .as("%s of %s", acquisition.isShared() ? "a shared lease" : "the lock", acquisition.key())
                .isTrue();
        return result.fencingToken();
    }

    /** @return the remaining lease a refusal reports */
    private static long refused(AcquireResult result) {
        assertThat(result.isAcquired()).as("refused").isFalse();
        assertThat(result.remainingLeaseMillis())
                .as("a refusal's remaining lease")
                .isPresent();
        return result.remainingLeaseMillis().getAsLong();
    }

    @Test
    void theStoreDeclaresSharedLocksBesideWaitingTurns() {
        assertThat(store.capabilities()).contains(StoreCapability.SHARED_LOCKS, StoreCapability.WAITING_TURNS);
    }

    @Test
    void aKeyTakesSharedLeasesUpToTheRequestsLimitEachWithItsOwnTokenAndExpiry() {
        String key = key("permits");
        long first = taken(store, shared(key, owner(), 20_000, 3));
        long second = taken(other, shared(key, owner(), 40_000, 3));
        long third = taken(store, shared(key, owner(), 50_000, 3));
        assertThat(List.of(first, second, third)).isSorted().doesNotHaveDuplicates();

        assertThat(refused(other.acquire(shared(key, owner(), LONG_TTL, 3))))
                .as("a full key: until its shortest lease ends")
                .isBetween(18_000L, 20_000L);
        assertThat(refused(other.acquire(Acquisition.of(key, owner(), LONG_TTL))))
                .as("an exclusive request: until the longest shared lease ends")
                .isBetween(48_000L, 50_000L);
        assertThat(taken(other, shared(key, owner(), LONG_TTL, 4)))
                .as("a request with a limit of 4 is judged by its own limit")
                .isGreaterThan(third);
        assertThat(taken(store, shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED)))
                .as("a read lock, without a limit")
                .isGreaterThan(third);
        assertThat(store.acquire(shared(key, owner(), LONG_TTL, 4)).isAcquired())
                .as("a limit of 4 once five leases hold the key")
                .isFalse();
    }

    @Test
    void anExclusiveLockKeepsSharedRequestsOutAndSharedLeasesKeepItOut() {
        String key = key("modes");
        String writer = owner();
        long writeToken = taken(store, Acquisition.of(key, writer, 30_000));
        assertThat(refused(other.acquire(shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED))))
                .as("a read lock refused by the write lock: its remaining lease")
                .isBetween(28_000L, 30_000L);
        assertThat(store.release(key, writer)).isTrue();

        String reader = owner();
        long readToken = taken(other, shared(key, reader, LONG_TTL, Acquisition.UNLIMITED));
        assertThat(readToken).isGreaterThan(writeToken);
        assertThat(store.acquire(Acquisition.of(key, owner(), LONG_TTL)).isAcquired())
                .isFalse();
        assertThat(other.release(key, reader)).isTrue();
        assertThat(taken(store, Acquisition.of(key, owner(), LONG_TTL)))
                .as("the write lock once the last reader left")
                .isGreaterThan(readToken);
    }

    @Test
    void renewReleaseAndRenewAllWorkOnEachSharedLeaseAlone() {
        String key = key("per-lease");
        String a = owner();
        String b = owner();
        taken(store, shared(key, a, 5_000, 2));
        long tokenB = taken(other, shared(key, b, 5_000, 2));

        assertThat(other.renew(Renewal.of(key, a, 40_000)))
                .as("a's lease, through the other instance")
                .isTrue();
        assertThat(store.renew(Renewal.of(key, owner(), 40_000)))
                .as("a stranger")
                .isFalse();
        assertThat(refused(store.acquire(Acquisition.of(key, owner(), LONG_TTL))))
                .as("the longest lease is a's, renewed")
                .isBetween(38_000L, 40_000L);
        assertThat(store.release(key, a)).isTrue();
        assertThat(store.release(key, a)).as("released twice").isFalse();
        assertThat(store.renew(Renewal.of(key, a, 40_000)))
                .as("renewed after its release")
                .isFalse();
        assertThat(refused(store.acquire(Acquisition.of(key, owner(), LONG_TTL))))
                .as("b's 5 s lease is left, not a's 40 s")
                .isBetween(3_000L, 5_000L);

        Lease leaseA = new Lease(key, a);
        Lease leaseB = new Lease(key, b);
        Lease stranger = new Lease(key, owner());
        assertThat(store.renewAll(List.of(leaseA, leaseB, stranger), 30_000, 2_000))
                .containsExactly(leaseB);
        assertThat(store.inspect(key))
                .get()
                .extracting(Holder::owner, Holder::fencingToken)
                .containsExactly(b, tokenB);
        assertThat(other.release(key, b)).isTrue();
        assertThat(store.inspect(key)).isEmpty();
    }

    @Test
    void aRefusalReportsExactEndsAfterTheFirstOrTheLastLeaseToEndIsReleasedOrShortened() {
        String key = key("ends");
        String shortest = owner();
        String middle = owner();
        String longest = owner();
        taken(store, shared(key, shortest, 10_000, 3));
        taken(store, shared(key, middle, 30_000, 3));
        taken(store, shared(key, longest, 50_000, 3));

        assertThat(store.release(key, shortest)).isTrue();
        assertThat(refused(other.acquire(shared(key, owner(), LONG_TTL, 2))))
                .as("full for a limit of 2: until the 30 s lease ends, not the released 10 s one")
                .isBetween(28_000L, 30_000L);
        assertThat(store.release(key, longest)).isTrue();
        assertThat(refused(other.acquire(Acquisition.of(key, owner(), LONG_TTL))))
                .as("an exclusive request after the longest lease left: until the 30 s lease ends")
                .isBetween(28_000L, 30_000L);
        assertThat(other.renew(Renewal.of(key, middle, 5_000))).isTrue();
        assertThat(refused(other.acquire(Acquisition.of(key, owner(), LONG_TTL))))
                .as("the last lease shortened to 5 s")
                .isBetween(3_000L, 5_000L);
    }

    @Test
    void anOwnerThatHoldsASharedLeaseDoesNotTakeASecondOne() {
        String key = key("twice");
        String reader = owner();
        long token = taken(store, shared(key, reader, LONG_TTL, Acquisition.UNLIMITED));

        assertThat(refused(other.acquire(shared(key, reader, 10_000, Acquisition.UNLIMITED))))
                .as("its own lease's remaining")
                .isBetween(LONG_TTL - 2_000, LONG_TTL);
        assertThat(store.inspect(key)).get().extracting(Holder::fencingToken).isEqualTo(token);
        assertThat(store.release(key, reader)).isTrue();
        assertThat(store.release(key, reader)).as("one lease, released once").isFalse();
        assertThat(taken(store, Acquisition.of(key, owner(), LONG_TTL))).isGreaterThan(token);
    }

    @Test
    void inspectTellsTheLiveSharedLeaseWithTheGreatestToken() {
        String key = key("inspect");
        String a = owner();
        String b = owner();
        String c = owner();
        taken(store, shared(key, a, LONG_TTL, 5));
        long tokenB = taken(store, shared(key, b, 20_000, 5));
        long tokenC = taken(other, shared(key, c, 10_000, 5));

        Holder newest = store.inspect(key).orElseThrow();
        assertThat(newest.owner()).isEqualTo(c);
        assertThat(newest.fencingToken()).isEqualTo(tokenC);
        assertThat(newest.remainingLeaseMillis()).isBetween(8_000L, 10_000L);
        assertThat(store.release(key, c)).isTrue();
        assertThat(other.inspect(key))
                .get()
                .extracting(Holder::owner, Holder::fencingToken)
                .containsExactly(b, tokenB);
    }

    @Test
    void aSharedLeasesReleaseIsAnnouncedToListenersOfOtherInstances() throws Exception {
        String key = key("announced");
        List<String> heard = new CopyOnWriteArrayList<>();
        try (AutoCloseable handle = other.onRelease(heard::add)) {
            String reader = owner();
            taken(store, shared(key, reader, LONG_TTL, Acquisition.UNLIMITED));
            taken(store, shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED));
            assertThat(store.release(key, reader)).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(key));
        }
    }

    @Test
    void aCrashedHoldersPermitIsFreedWhenItsTtlEnds() throws Exception {
        String key = key("crash");
        RedisLockStore crashing = admin.store("baton-shared-crashing");
        String crashed = owner();
        taken(crashing, shared(key, crashed, 700, 2));
        taken(store, shared(key, owner(), LONG_TTL, 2));
        crashing.close(); // its process is gone: no release, no renewal

        long remaining = refused(other.acquire(shared(key, owner(), LONG_TTL, 2)));
        assertThat(remaining)
                .as("the full key is free when the crashed lease ends")
                .isLessThanOrEqualTo(700);
        long refusedAt = System.nanoTime();
        String next = owner();
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> other.acquire(shared(key, next, LONG_TTL, 2)).isAcquired());
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - refusedAt))
                .as("ms until the permit was taken again")
                .isLessThan(remaining + 1_000);
        assertThat(admin.redis().hexists(admin.prefix() + key, "s:" + crashed))
                .as("the crashed lease is dropped")
                .isFalse();
        assertThat(store.renew(Renewal.of(key, crashed, LONG_TTL))).isFalse();
    }

    @Test
    void aWritersTurnKeepsNewReadersOutUntilItHasTakenTheKey() {
        String key = key("turns");
        String firstReader = owner();
        taken(store, shared(key, firstReader, 20_000, Acquisition.UNLIMITED));

        AcquireResult writerPoll =
                other.acquire(polling(key, owner(), new Turn("writer", 500, LONG_TTL), Acquisition.EXCLUSIVE));
        assertThat(writerPoll.isNextInTurn()).as("the writer holds the turn").isTrue();
        assertThat(writerPoll.remainingLeaseMillis().orElseThrow())
                .as("until the reader's lease ends")
                .isBetween(18_000L, 20_000L);

        assertThat(store.acquire(shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED))
                        .isAcquired())
                .as("a reader without a turn, though the key has room")
                .isFalse();
        AcquireResult laterReader =
                store.acquire(polling(key, owner(), new Turn("later-reader", 100, LONG_TTL), Acquisition.UNLIMITED));
        assertThat(laterReader.isAcquired() || laterReader.isNextInTurn())
                .as("a reader that has waited less than the writer")
                .isFalse();

        assertThat(store.release(key, firstReader)).isTrue();
        assertThat(store.acquire(shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED))
                        .isAcquired())
                .as("a reader on the free key kept for the writer")
                .isFalse();
        String writer = owner();
        long writeToken = taken(other, polling(key, writer, new Turn("writer", 600, LONG_TTL), Acquisition.EXCLUSIVE));
        assertThat(other.release(key, writer)).isTrue();

        assertThat(taken(store, shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED)))
                .as("readers once the writer took the key: its turn ended with that")
                .isGreaterThan(writeToken);
    }

    @Test
    void aReaderThatHasWaitedLongerThanAWriterTakesTheTurnAndTheKey() {
        String key = key("older-reader");
        String writer = owner();
        taken(store, Acquisition.of(key, writer, 20_000));
        assertThat(other.acquire(polling(key, owner(), new Turn("writer", 100, LONG_TTL), Acquisition.EXCLUSIVE))
                        .isNextInTurn())
                .isTrue();
        assertThat(store.acquire(polling(key, owner(), new Turn("reader", 900, LONG_TTL), Acquisition.UNLIMITED))
                        .isNextInTurn())
                .as("the reader has waited longer")
                .isTrue();
        assertThat(store.release(key, writer)).isTrue();

        assertThat(other.acquire(polling(key, owner(), new Turn("writer", 200, LONG_TTL), Acquisition.EXCLUSIVE))
                        .isAcquired())
                .as("the free key is kept for the reader")
                .isFalse();
        taken(store, polling(key, owner(), new Turn("reader", 1_000, LONG_TTL), Acquisition.UNLIMITED));
    }

    @Test
    void aTurnLeftOnAKeyHeldBySharedLeasesIsAnnouncedAndLetsReadersIn() throws Exception {
        String key = key("left-turn");
        taken(store, shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED));
        assertThat(other.acquire(polling(key, owner(), new Turn("writer", 0, LONG_TTL), Acquisition.EXCLUSIVE))
                        .isNextInTurn())
                .isTrue();
        assertThat(store.acquire(shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED))
                        .isAcquired())
                .isFalse();
        List<String> heard = new CopyOnWriteArrayList<>();
        try (AutoCloseable handle = store.onRelease(heard::add)) {
            assertThat(other.leaveTurn(key, "writer")).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(key));
        }
        taken(store, shared(key, owner(), LONG_TTL, Acquisition.UNLIMITED));
    }

    /**
     * Eight threads on two instances race for one key, 150 times each: a third of the time for the lock, else for
     * a shared lease with a limit of 3, asking every 0.1 to 1 ms with a turn, as the engine's waiters do, until
     * they have it; each holds what it took for up to 2 ms and renews it once. The counters a holder raises after
     * it acquired and lowers before it releases never exceed what the store allowed, so any breach they show is a
     * real one.
     */
    @Test
    void racingThreadsNeverExceedTheLimitNorMeetAWriterAndTheirTokensOnlyGrow() throws Exception {
        int limit = 3;
        int threads = 8;
        int rounds = 150;
        String key = key("race");
        List<RedisLockStore> instances = List.of(store, other);
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger mostReaders = new AtomicInteger();
        AtomicInteger exclusiveTaken = new AtomicInteger();
        AtomicLong highestToken = new AtomicLong();
        Set<Long> tokens = ConcurrentHashMap.newKeySet();
        List<String> breaches = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                RedisLockStore on = instances.get(t % 2);
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int round = 0; round < rounds; round++) {
                        boolean exclusive = random.nextInt(3) == 0;
                        String owner = "race-" + thread + "-" + round;
                        long began = System.nanoTime();
                        AcquireResult result;
                        long before;
                        while (true) {
                            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                            before = highestToken.get();
                            result = on.acquire(new Acquisition(
                                    key,
                                    owner,
                                    10_000,
                                    0,
                                    new Turn(owner, waited, 1_000),
                                    exclusive ? Acquisition.EXCLUSIVE : limit));
                            if (result.isAcquired() || waited > 60_000) {
                                break;
                            }
                            LockSupport.parkNanos(random.nextLong(100_000, 1_000_000));
                        }
                        if (!result.isAcquired()) {
                            breaches.add(owner + " waited a minute in vain");
                            continue;
                        }
                        long token = result.fencingToken();
                        if (token <= before) {
                            breaches.add("token " + token + " after " + before + " was handed out");
                        }
                        if (!tokens.add(token)) {
                            breaches.add("token " + token + " twice");
                        }
                        highestToken.accumulateAndGet(token, Math::max);
                        AtomicInteger mine = exclusive ? writers : readers;
                        int together = mine.incrementAndGet();
                        if (exclusive && (together != 1 || readers.get() != 0)) {
                            breaches.add(
                                    "a writer beside " + (together - 1) + " writers and " + readers.get() + " readers");
                        }
                        if (!exclusive && (together > limit || writers.get() != 0)) {
                            breaches.add(together + " readers with a limit of " + limit + ", and " + writers.get()
                                    + " writers");
                        }
                        mostReaders.accumulateAndGet(exclusive ? 0 : together, Math::max);
                        if (exclusive) {
                            exclusiveTaken.incrementAndGet();
                        }
                        LockSupport.parkNanos(random.nextLong(0, 1_000_000));
                        if (!on.renew(Renewal.of(key, owner, 10_000))) {
                            breaches.add(owner + " could not renew what it held");
                        }
                        LockSupport.parkNanos(random.nextLong(0, 1_000_000));
                        mine.decrementAndGet();
                        if (!on.release(key, owner)) {
                            breaches.add(owner + " could not release what it held");
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> thread : done) {
                thread.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(breaches).isEmpty();
        assertThat(tokens).as("acquisitions").hasSize(threads * rounds);
        assertThat(exclusiveTaken.get()).as("exclusive locks taken").isGreaterThan(threads * rounds / 6);
        assertThat(mostReaders.get())
                .as("the most readers at once: the limit was reached")
                .isEqualTo(limit);
        assertThat(store.inspect(key)).as("everything was released").isEmpty();
    }

    /**
     * Four reader threads keep a read lock held almost without a gap, while a writer asks every millisecond with
     * a turn, twenty times over. Once the writer holds the key's turn no reader gets in until the writer has had
     * the key; without turns the writer would wait for a moment with no reader, which this stream hardly leaves.
     */
    @Test
    void aWriterWaitingItsTurnIsNotStarvedByAStreamOfReaders() throws Exception {
        int writerRounds = 20;
        String key = key("stream");
        AtomicBoolean stop = new AtomicBoolean();
        // each reader's successful call: when it was sent and when its answer came, by System.nanoTime()
        List<long[]> readerCalls = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        // each writer round: when it learned it held the turn (0 if it never waited) and when it sent the call
        // that took the key
        List<long[]> writerRoundsSeen = new ArrayList<>();
        try {
            for (int t = 0; t < 4; t++) {
                RedisLockStore on = t % 2 == 0 ? store : other;
                pool.submit(() -> {
                    while (!stop.get()) {
                        String owner = owner();
                        long sentAt = System.nanoTime();
                        if (on.acquire(new Acquisition(key, owner, 10_000, 0, null, Acquisition.UNLIMITED))
                                .isAcquired()) {
                            readerCalls.add(new long[] {sentAt, System.nanoTime()});
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(4));
                            on.release(key, owner);
                        } else {
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                        }
                    }
                    return null;
                });
            }
            for (int round = 0; round < writerRounds; round++) {
                Thread.sleep(20); // the readers fill the key again
                String waiter = "writer-" + round;
                String writer = owner();
                long began = System.nanoTime();
                long turnAt = 0;
                while (true) {
                    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                    long sentAt = System.nanoTime();
                    AcquireResult result =
                            other.acquire(polling(key, writer, new Turn(waiter, waited, 1_000), Acquisition.EXCLUSIVE));
                    if (result.isAcquired()) {
                        writerRoundsSeen.add(new long[] {turnAt, sentAt});
                        other.release(key, writer);
                        break;
                    }
                    if (result.isNextInTurn() && turnAt == 0) {
                        turnAt = System.nanoTime();
                    }
                    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began))
                            .as("seconds the writer waited in round %d", round)
                            .isLessThan(10);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
        } finally {
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }

        List<long[]> waitedTurns =
                writerRoundsSeen.stream().filter(round -> round[0] != 0).toList();
        assertThat(waitedTurns.size())
                .as("rounds in which readers held the key when the writer came, so it waited its turn")
                .isGreaterThanOrEqualTo(writerRounds / 2);
        for (long[] round : waitedTurns) {
            // sent after the turn was the writer's and answered before the writer's taking call was sent: the
            // reader's script ran while the writer held the turn
            assertThat(readerCalls)
                    .as("readers that got in while the writer held the key's turn")
                    .noneMatch(call -> call[0] > round[0] && call[1] < round[1]);
        }
        assertThat(readerCalls.size()).as("reads").isGreaterThan(writerRounds);
    }
}
