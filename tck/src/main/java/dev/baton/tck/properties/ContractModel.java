package dev.baton.tck.properties;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The store contract of {@link dev.baton.spi.LockStore} as a small executable model: per key its exclusive lease,
 * its shared leases, its turn and the greatest token it has had, each lease and turn with its end on the model's
 * clock. Each call is checked against what the model expects (an {@link AssertionError} says what differs) and then
 * applied.
 *
 * <p>On a {@link TestClock} the model knows the store's time exactly; on a real clock it reads
 * {@link System#nanoTime()} before each call, and {@link StoreSequences} keeps every lease and turn far longer
 * than a sequence lasts, so nothing is decided by a few milliseconds either way.
 */
final class ContractModel {

    private record Lease(int owner, long token, long endsAt) {}

    private record WaiterTurn(int waiter, long since, long until) {}

    private static final class Key {
        Lease exclusive;
        final List<Lease> shared = new ArrayList<>();
        WaiterTurn turn;
        long lastToken;

        /** Drops what ended by {@code now}: an expired lease or turn does not exist. */
        void expire(long now) {
            if (exclusive != null && exclusive.endsAt - now <= 0) {
                exclusive = null;
            }
            shared.removeIf(lease -> lease.endsAt - now <= 0);
            if (turn != null && turn.until - now <= 0) {
                turn = null;
            }
        }

        Lease sharedOf(int owner) {
            return shared.stream().filter(l -> l.owner == owner).findFirst().orElse(null);
        }
    }

    private final Map<Integer, Key> keys = new HashMap<>();
    private final boolean remainingLease;
    /** Whether the model's clock is the store's (a {@link TestClock}): remaining leases are then checked to 1 ms. */
    private final boolean exactTime;
    /** The longest lease of the sequence: on a real clock, the bound of a reported remaining lease. */
    private final long longestTtlMillis;

    ContractModel(boolean remainingLease, boolean exactTime, long longestTtlMillis) {
        this.remainingLease = remainingLease;
        this.exactTime = exactTime;
        this.longestTtlMillis = longestTtlMillis;
    }

    private Key key(int key, long now) {
        Key k = keys.computeIfAbsent(key, any -> new Key());
        k.expire(now);
        return k;
    }

    /** What an acquisition must get, and its effect once the store's token is known. */
    private record Expected(Kind kind, OptionalLong remaining) {
        enum Kind {
            ACQUIRED,
            NEXT_IN_TURN,
            NOT_ACQUIRED
        }
    }

    void acquire(Action.Acquire a, AcquireResult got, long now) {
        Key k = key(a.key(), now);
        WaiterTurn claim = a.hasTurn()
                ? new WaiterTurn(a.waiter(), now - a.waitedMillis() * 1_000_000, now + a.keepMillis() * 1_000_000)
                : null;
        WaiterTurn standing = k.turn;
        // Of two waiters the one that has waited longer gets the turn; on a tie the one holding it keeps it.
        boolean mayClaim = claim != null
                && (standing == null || standing.waiter == claim.waiter || standing.since - claim.since > 0);
        Expected expected;
        if (k.exclusive != null) {
            expected = refused(mayClaim, remaining(k.exclusive.endsAt, now));
        } else if (blocked(k, a.sharedLimit())) {
            expected = refused(mayClaim, remaining(blockingEnd(k, a.sharedLimit()), now));
        } else if ((standing != null && !mayClaim) || k.sharedOf(a.owner()) != null) {
            expected = new Expected(Expected.Kind.NOT_ACQUIRED, OptionalLong.empty()); // a turn's, or its own lease
        } else {
            expected = new Expected(Expected.Kind.ACQUIRED, OptionalLong.empty());
        }
        check(kindOf(got) == expected.kind, "must be " + expected.kind + ", was " + got);
        switch (expected.kind) {
            case ACQUIRED -> {
                long token = newToken(k, got);
                Lease lease = new Lease(a.owner(), token, now + a.ttlMillis() * 1_000_000);
                if (a.sharedLimit() == Acquisition.EXCLUSIVE) {
                    k.exclusive = lease;
                } else {
                    k.shared.add(lease);
                }
                k.turn = null; // taking the key ends its turn
            }
            case NEXT_IN_TURN -> {
                k.turn = claim;
                checkRemaining(got.remainingLeaseMillis(), expected.remaining);
            }
            case NOT_ACQUIRED -> checkRemaining(got.remainingLeaseMillis(), expected.remaining);
        }
    }

    private static Expected refused(boolean mayClaim, long remainingMillis) {
        return new Expected(
                mayClaim ? Expected.Kind.NEXT_IN_TURN : Expected.Kind.NOT_ACQUIRED, OptionalLong.of(remainingMillis));
    }

    private static Expected.Kind kindOf(AcquireResult result) {
        if (result.isAcquired()) {
            return Expected.Kind.ACQUIRED;
        }
        return result.isNextInTurn() ? Expected.Kind.NEXT_IN_TURN : Expected.Kind.NOT_ACQUIRED;
    }

    /** Whether live shared leases leave no room: any for an exclusive request, the limit for a shared one. */
    private static boolean blocked(Key k, int sharedLimit) {
        return !k.shared.isEmpty() && (sharedLimit == Acquisition.EXCLUSIVE || k.shared.size() >= sharedLimit);
    }

    /** When there would be room by expiry: the longest shared lease for an exclusive request, the shortest for a shared one. */
    private static long blockingEnd(Key k, int sharedLimit) {
        Comparator<Lease> byEnd = (x, y) -> Long.signum(x.endsAt - y.endsAt);
        return (sharedLimit == Acquisition.EXCLUSIVE
                        ? k.shared.stream().max(byEnd)
                        : k.shared.stream().min(byEnd))
                .orElseThrow()
                .endsAt;
    }

    private long newToken(Key k, AcquireResult got) {
        long token = got.fencingToken();
        check(
                token > 0 && token > k.lastToken,
                "the token " + token + " must be positive and greater than " + k.lastToken + ", the key's last");
        k.lastToken = token;
        return token;
    }

    private static long remaining(long endsAt, long now) {
        return (endsAt - now) / 1_000_000;
    }

    private void checkRemaining(OptionalLong reported, OptionalLong expected) {
        if (!remainingLease || expected.isEmpty()) {
            return;
        }
        check(
                reported.isPresent(),
                "REMAINING_LEASE is declared: a refusal by a live lease reports how long it has left");
        long got = reported.getAsLong();
        if (exactTime) {
            check(
                    Math.abs(got - expected.getAsLong()) <= 1,
                    "the remaining lease must be " + expected.getAsLong() + " ms, was " + got);
        } else {
            check(got >= 0 && got <= longestTtlMillis, "the remaining lease must be within the ttl, was " + got);
        }
    }

    void renew(Action.Renew r, boolean got, long now) {
        boolean renewed = renewed(key(r.key(), now), r.owner(), now + r.ttlMillis() * 1_000_000);
        check(got == renewed, "must answer " + renewed + " (only a live lease of the owner is renewed)");
    }

    /** Sets the end of {@code owner}'s live lease of the key, if it has one. */
    private static boolean renewed(Key k, int owner, long endsAt) {
        if (k.exclusive != null && k.exclusive.owner == owner) {
            k.exclusive = new Lease(owner, k.exclusive.token, endsAt);
            return true;
        }
        Lease shared = k.sharedOf(owner);
        if (shared != null) {
            k.shared.set(k.shared.indexOf(shared), new Lease(owner, shared.token, endsAt));
            return true;
        }
        return false;
    }

    /** @param got the indexes in {@code all.leases()} of the leases the store said it renewed */
    void renewAll(Action.RenewAll all, Set<Integer> got, long now) {
        List<Integer> renewed = new ArrayList<>();
        for (int i = 0; i < all.leases().size(); i++) {
            int[] lease = all.leases().get(i);
            if (renewed(key(lease[0], now), lease[1], now + all.ttlMillis() * 1_000_000)) {
                renewed.add(i);
            }
        }
        check(
                got.equals(Set.copyOf(renewed)),
                "must renew exactly the live leases of their owners: those at " + renewed);
    }

    void release(Action.Release r, boolean got, long now) {
        Key k = key(r.key(), now);
        boolean released = released(k, r.owner());
        check(got == released, "must answer " + released + " (only the owner's live lease is released)");
    }

    private static boolean released(Key k, int owner) {
        if (k.exclusive != null && k.exclusive.owner == owner) {
            k.exclusive = null; // the turn stays
            return true;
        }
        return k.shared.remove(k.sharedOf(owner));
    }

    void inspect(Action.Inspect i, Optional<Holder> got, long now) {
        Key k = key(i.key(), now);
        Lease holder = k.exclusive != null
                ? k.exclusive
                : k.shared.stream().max(Comparator.comparingLong(Lease::token)).orElse(null);
        if (holder == null) {
            check(got.isEmpty(), "a key without a live lease has no holder");
            return;
        }
        check(got.isPresent(), "the live holder " + Names.owner(holder.owner) + " must be reported");
        check(
                got.get().owner().equals(Names.owner(holder.owner)) && got.get().fencingToken() == holder.token,
                "the holder must be " + Names.owner(holder.owner) + " with token " + holder.token);
        long expected = Math.max(1, (holder.endsAt - now + 999_999) / 1_000_000);
        long left = got.get().remainingLeaseMillis();
        check(
                exactTime ? Math.abs(left - expected) <= 1 : left >= 1 && left <= longestTtlMillis,
                "the remaining lease must be " + (exactTime ? expected + " ms" : "within the ttl") + ", was " + left);
    }

    void leaveTurn(Action.LeaveTurn l, boolean got, long now) {
        Key k = key(l.key(), now);
        boolean left = k.turn != null && k.turn.waiter == l.waiter();
        if (left) {
            k.turn = null;
        }
        check(got == left, "must answer " + left + " (only the waiter holding the live turn gives it up)");
    }

    void handOver(Action.HandOver h, HandOverResult got, long now) {
        Key k = key(h.key(), now);
        if (k.exclusive == null || k.exclusive.owner != h.owner()) {
            check(!got.released(), "a caller without the key's live exclusive lease releases nothing");
            acquire(
                    new Action.Acquire(h.key(), h.next(), h.ttlMillis(), Acquisition.EXCLUSIVE, -1, 0, 0),
                    got.next(),
                    now);
            return;
        }
        check(got.released(), "the owner's live exclusive lease must be released");
        k.exclusive = null;
        if (k.turn != null) {
            check(!got.next().isAcquired(), "a key kept for another waiter's turn is released, not handed over");
            return;
        }
        check(got.next().isAcquired(), "the released key must be handed over: " + got.next());
        k.exclusive = new Lease(h.next(), newToken(k, got.next()), now + h.ttlMillis() * 1_000_000);
    }

    private static void check(boolean holds, String what) {
        if (!holds) {
            throw new AssertionError(what); // a call's answer that the contract does not allow
        }
    }
}
