package dev.baton.tck.properties;

import dev.baton.spi.Acquisition;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One call of a sequence that {@link StoreSequences} runs against a store and its {@link ContractModel}. Keys,
 * owners and waiters are small numbers, named per run ({@link Names}), so that a shrunk sequence reads well and
 * runs again on fresh keys.
 */
sealed interface Action {

    /** @return the call as a line of a report, with the run's names */
    String describe();

    /** {@code LockStore.acquire}: exclusive, or shared up to {@code sharedLimit}; with a turn if {@code waiter >= 0}. */
    record Acquire(int key, int owner, long ttlMillis, int sharedLimit, int waiter, long waitedMillis, long keepMillis)
            implements Action {
        boolean hasTurn() {
            return waiter >= 0;
        }

        @Override
        public String describe() {
            return "acquire " + Names.key(key) + " for " + Names.owner(owner) + ", ttl " + ttlMillis + " ms"
                    + (sharedLimit == Acquisition.EXCLUSIVE
                            ? ""
                            : ", shared up to " + (sharedLimit == Acquisition.UNLIMITED ? "any" : sharedLimit))
                    + (hasTurn()
                            ? ", turn of " + Names.waiter(waiter) + " (waited " + waitedMillis + " ms, kept "
                                    + keepMillis + " ms)"
                            : "");
        }
    }

    record Renew(int key, int owner, long ttlMillis) implements Action {
        @Override
        public String describe() {
            return "renew " + Names.key(key) + " for " + Names.owner(owner) + ", ttl " + ttlMillis + " ms";
        }
    }

    /** {@code LockStore.renewAll} of distinct leases, each a key and an owner. */
    record RenewAll(List<int[]> leases, long ttlMillis) implements Action {
        @Override
        public String describe() {
            return "renewAll "
                    + leases.stream()
                            .map(lease -> Names.key(lease[0]) + "/" + Names.owner(lease[1]))
                            .collect(Collectors.joining(", ", "[", "]"))
                    + ", ttl " + ttlMillis + " ms";
        }
    }

    record Release(int key, int owner) implements Action {
        @Override
        public String describe() {
            return "release " + Names.key(key) + " for " + Names.owner(owner);
        }
    }

    record Inspect(int key) implements Action {
        @Override
        public String describe() {
            return "inspect " + Names.key(key);
        }
    }

    record LeaveTurn(int key, int waiter) implements Action {
        @Override
        public String describe() {
            return "leaveTurn " + Names.key(key) + " of " + Names.waiter(waiter);
        }
    }

    /** {@code LockStore.handOver}: {@code owner}'s lock of the key to {@code next}, exclusive, without a turn. */
    record HandOver(int key, int owner, int next, long ttlMillis) implements Action {
        @Override
        public String describe() {
            return "handOver " + Names.key(key) + " from " + Names.owner(owner) + " to " + Names.owner(next) + ", ttl "
                    + ttlMillis + " ms";
        }
    }

    /** The test clock moves on ({@link TestClock}); no store call. */
    record Step(long millis) implements Action {
        @Override
        public String describe() {
            return "clock + " + millis + " ms";
        }
    }
}
