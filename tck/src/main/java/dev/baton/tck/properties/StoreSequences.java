package dev.baton.tck.properties;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs random sequences of store calls (acquire, renew, renewAll, release, inspect, turns, hand-over, clock steps)
 * by several owners against a store and its {@link ContractModel}, each on a new store instance and fresh keys,
 * and shrinks a failing sequence to the shortest one that still fails. What {@link StoreProperties} runs; public
 * for a store author's own harness.
 */
public final class StoreSequences {

    /** The longest sequence generated. */
    static final int MAX_LENGTH = 30;
    /** How many reruns a shrink may take at most. */
    static final int MAX_SHRINK_RUNS = 2_000;
    /** On a real clock, every lease and turn: far longer than a sequence takes. */
    static final long REAL_CLOCK_TTL = 120_000;

    private static final int KEYS = 2;
    private static final int OWNERS = 3;
    private static final int WAITERS = 2;

    private final Supplier<LockStore> stores;
    private final TestClock clock;
    private final String prefix;
    private int runs;

    /**
     * @param stores makes a new store instance for each run of a sequence (on the same backend is fine: each run
     *     has keys of its own)
     * @param clock the clock the stores measure time with, if the test controls it; null for a real clock
     */
    public StoreSequences(Supplier<LockStore> stores, TestClock clock) {
        this.stores = stores;
        this.clock = clock;
        this.prefix = "props:" + Long.toHexString(new Random().nextLong()) + ":";
    }

    /**
     * Runs {@code tries} random sequences; on the first that fails, shrinks it and throws.
     *
     * @param tries how many sequences
     * @param seed the seed of the random sequences (the same seed makes the same sequences)
     * @throws ContractViolation with the shortest failing sequence found
     */
    public void check(int tries, long seed) {
        Set<StoreCapability> capabilities;
        try (LockStore store = stores.get()) {
            capabilities = Set.copyOf(store.capabilities());
        }
        Random random = new Random(seed);
        for (int i = 0; i < tries; i++) {
            List<Action> sequence = generate(random, capabilities);
            Outcome outcome = run(sequence, capabilities);
            if (outcome.failed()) {
                int original = sequence.size();
                Outcome shortest = shrink(sequence, outcome, capabilities);
                throw new ContractViolation(shortest.transcript, shortest.steps(), original, seed, i + 1);
            }
        }
    }

    // ---------------------------------------------------------------- generation

    private List<Action> generate(Random random, Set<StoreCapability> capabilities) {
        int length = 1 + random.nextInt(MAX_LENGTH);
        List<Action> sequence = new ArrayList<>(length);
        while (sequence.size() < length) {
            Action action = action(random, capabilities);
            if (action != null) {
                sequence.add(action);
            }
        }
        return sequence;
    }

    /** @return a random call the store's capabilities allow, or null (the caller draws again) */
    private Action action(Random random, Set<StoreCapability> capabilities) {
        int key = random.nextInt(KEYS);
        int owner = random.nextInt(OWNERS);
        int pick = random.nextInt(100);
        if (pick < 34) {
            return acquire(random, capabilities, key, owner);
        } else if (pick < 46) {
            return new Action.Renew(key, owner, ttl(random));
        } else if (pick < 50) {
            List<int[]> leases = new ArrayList<>();
            Set<Integer> seen = new HashSet<>();
            for (int i = random.nextInt(4); i > 0; i--) {
                int k = random.nextInt(KEYS);
                int o = random.nextInt(OWNERS);
                if (seen.add(k * OWNERS + o)) {
                    leases.add(new int[] {k, o});
                }
            }
            return new Action.RenewAll(leases, ttl(random));
        } else if (pick < 66) {
            return new Action.Release(key, owner);
        } else if (pick < 72) {
            return capabilities.contains(StoreCapability.INSPECT) ? new Action.Inspect(key) : null;
        } else if (pick < 77) {
            return capabilities.contains(StoreCapability.WAITING_TURNS)
                    ? new Action.LeaveTurn(key, random.nextInt(WAITERS))
                    : null;
        } else if (pick < 83) {
            return capabilities.contains(StoreCapability.HAND_OVER)
                    ? new Action.HandOver(key, owner, random.nextInt(OWNERS), ttl(random))
                    : null;
        }
        return clock == null ? null : new Action.Step(pickOf(random, 1, 40, 120, 400));
    }

    private Action acquire(Random random, Set<StoreCapability> capabilities, int key, int owner) {
        int sharedLimit = capabilities.contains(StoreCapability.SHARED_LOCKS) && random.nextInt(3) == 0
                ? (int) pickOf(random, 1, 2, Acquisition.UNLIMITED)
                : Acquisition.EXCLUSIVE;
        if (!capabilities.contains(StoreCapability.WAITING_TURNS) || random.nextInt(5) >= 2) {
            return new Action.Acquire(key, owner, ttl(random), sharedLimit, -1, 0, 0);
        }
        // On a real clock waits differ by ten seconds: which waiter waited longer never hangs on the calls' timing.
        long waited = clock == null ? pickOf(random, 0, 10_000, 20_000) : pickOf(random, 0, 30, 300);
        long keep = clock == null ? REAL_CLOCK_TTL : pickOf(random, 80, 300);
        return new Action.Acquire(key, owner, ttl(random), sharedLimit, random.nextInt(WAITERS), waited, keep);
    }

    private long ttl(Random random) {
        return clock == null ? REAL_CLOCK_TTL : pickOf(random, 60, 200, 1_000);
    }

    private static long pickOf(Random random, long... values) {
        return values[random.nextInt(values.length)];
    }

    // ---------------------------------------------------------------- running

    /** What a run did: each step's line, and the failing step (-1 if none). */
    private record Outcome(List<Action> sequence, List<String> transcript, int failedAt) {
        boolean failed() {
            return failedAt >= 0;
        }

        /** @return the sequence up to its failing step */
        List<Action> steps() {
            return sequence.subList(0, failedAt + 1);
        }
    }

    private Outcome run(List<Action> sequence, Set<StoreCapability> capabilities) {
        String keyPrefix = prefix + (++runs) + ":";
        ContractModel model = new ContractModel(
                capabilities.contains(StoreCapability.REMAINING_LEASE), clock != null, REAL_CLOCK_TTL);
        List<String> transcript = new ArrayList<>();
        try (LockStore store = stores.get()) {
            for (int i = 0; i < sequence.size(); i++) {
                Action action = sequence.get(i);
                String line = (i + 1) + ". " + action.describe();
                try {
                    transcript.add(line + " -> " + perform(action, store, model, keyPrefix));
                } catch (AssertionError e) {
                    transcript.add(line + ": " + e.getMessage());
                    return new Outcome(sequence, transcript, i);
                } catch (RuntimeException e) {
                    transcript.add(line + ": failed with " + e);
                    return new Outcome(sequence, transcript, i);
                }
            }
        }
        return new Outcome(sequence, transcript, -1);
    }

    /** Makes the call, checks it against the model, and says what the store answered. */
    private String perform(Action action, LockStore store, ContractModel model, String keyPrefix) {
        long now = now();
        if (action instanceof Action.Acquire a) {
            Turn turn = a.hasTurn() ? new Turn(Names.waiter(a.waiter()), a.waitedMillis(), a.keepMillis()) : null;
            AcquireResult got = store.acquire(new Acquisition(
                    keyPrefix + Names.key(a.key()),
                    Names.owner(a.owner()),
                    a.ttlMillis(),
                    LockArguments.STORE_BOUND,
                    turn,
                    a.sharedLimit()));
            model.acquire(a, got, now);
            return got.toString();
        } else if (action instanceof Action.Renew r) {
            boolean got =
                    store.renew(Renewal.of(keyPrefix + Names.key(r.key()), Names.owner(r.owner()), r.ttlMillis()));
            model.renew(r, got, now);
            return String.valueOf(got);
        } else if (action instanceof Action.RenewAll all) {
            List<Lease> leases = all.leases().stream()
                    .map(l -> new Lease(keyPrefix + Names.key(l[0]), Names.owner(l[1])))
                    .toList();
            Set<Lease> renewed = store.renewAll(leases, all.ttlMillis(), LockArguments.STORE_BOUND);
            Set<Integer> indexes = new HashSet<>();
            for (int i = 0; i < leases.size(); i++) {
                if (renewed.contains(leases.get(i))) {
                    indexes.add(i);
                }
            }
            model.renewAll(all, indexes, now);
            return "renewed " + indexes.size();
        } else if (action instanceof Action.Release r) {
            boolean got = store.release(keyPrefix + Names.key(r.key()), Names.owner(r.owner()));
            model.release(r, got, now);
            return String.valueOf(got);
        } else if (action instanceof Action.Inspect i) {
            var got = store.inspect(keyPrefix + Names.key(i.key()));
            model.inspect(i, got, now);
            return got.map(Object::toString).orElse("no holder");
        } else if (action instanceof Action.LeaveTurn l) {
            boolean got = store.leaveTurn(keyPrefix + Names.key(l.key()), Names.waiter(l.waiter()));
            model.leaveTurn(l, got, now);
            return String.valueOf(got);
        } else if (action instanceof Action.HandOver h) {
            HandOverResult got = store.handOver(
                    Names.owner(h.owner()),
                    new Acquisition(
                            keyPrefix + Names.key(h.key()),
                            Names.owner(h.next()),
                            h.ttlMillis(),
                            LockArguments.STORE_BOUND,
                            null));
            model.handOver(h, got, now);
            return got.toString();
        } else if (action instanceof Action.Step s) {
            clock.advance(Duration.ofMillis(s.millis()));
            return "now +" + s.millis() + " ms";
        }
        throw new IllegalStateException("unknown action " + action);
    }

    private long now() {
        return clock == null ? System.nanoTime() : clock.getAsLong();
    }

    // ---------------------------------------------------------------- shrinking

    /**
     * Removes ever smaller runs of calls from a failing sequence while it still fails (on a new store, fresh keys),
     * until no single call can go: the result is a shortest sequence as far as removing calls goes.
     */
    private Outcome shrink(List<Action> sequence, Outcome failing, Set<StoreCapability> capabilities) {
        Outcome best = failing;
        int reruns = 0;
        boolean shorter = true;
        while (shorter && reruns < MAX_SHRINK_RUNS) {
            shorter = false;
            for (int chunk = Math.max(1, best.steps().size() / 2); chunk >= 1; chunk /= 2) {
                int start = 0;
                while (start < best.steps().size() && reruns < MAX_SHRINK_RUNS) {
                    List<Action> candidate = new ArrayList<>(best.steps());
                    candidate
                            .subList(start, Math.min(candidate.size(), start + chunk))
                            .clear();
                    if (candidate.isEmpty()) {
                        start += chunk;
                        continue;
                    }
                    reruns++;
                    Outcome outcome = run(candidate, capabilities);
                    if (outcome.failed()) {
                        best = outcome;
                        shorter = true;
                    } else {
                        start += chunk;
                    }
                }
            }
        }
        return best;
    }
}
