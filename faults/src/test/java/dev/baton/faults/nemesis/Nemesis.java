package dev.baton.faults.nemesis;

import static dev.baton.faults.history.Vocabulary.FAULT;
import static dev.baton.faults.history.Vocabulary.HEAL;

import dev.baton.faults.db.Cluster;
import dev.baton.faults.db.Processes;
import dev.baton.faults.db.Server;
import dev.baton.faults.history.FaultKind;
import dev.baton.faults.history.HistoryWriter;
import dev.baton.faults.proxy.FaultProxy;
import dev.baton.faults.store.StoreUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Injects faults, one at a time with quiet gaps between them, until the phase is over; logs each with
 * its time and target to the nemesis's history. The faults are drawn from the store's deck
 * ({@link dev.baton.faults.store.StoreKind#deck()}). Every fault is healed before the next one (a paused
 * worker resumed, a link restored, the store's server started or resumed).
 */
final class Nemesis {

    private final StoreUnderTest store;
    private final List<FaultKind> deckOfStore;
    private final java.nio.file.Path dir;
    private final Workers workers;
    private final HolderTracker tracker;
    private final HistoryWriter log;
    private final Random random;
    private final long ttl;
    private int faults;

    Nemesis(
            StoreUnderTest store,
            java.nio.file.Path dir,
            Workers workers,
            HolderTracker tracker,
            HistoryWriter log,
            long seed,
            long ttlMillis) {
        this.store = store;
        this.deckOfStore = store.kind().deck();
        this.dir = dir;
        this.workers = workers;
        this.tracker = tracker;
        this.log = log;
        this.random = new Random(seed);
        this.ttl = ttlMillis;
    }

    /**
     * Injects faults until {@code phase} has passed.
     *
     * @param phase how long
     */
    void run(Duration phase) {
        long deadline = System.nanoTime() + phase.toNanos();
        List<FaultKind> deck = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            sleepChecking(2_000 + random.nextInt(2_500), deadline);
            if (System.nanoTime() >= deadline) {
                break;
            }
            if (deck.isEmpty()) {
                deck.addAll(deal(deckOfStore, random));
            }
            inject(deck.remove(deck.size() - 1));
        }
    }

    /**
     * A round of the deck, in the order it is drawn (from the end): every kind once, shuffled, before the
     * repeats, shuffled too, so that a short phase (the CI profile's) still sees each of the store's faults.
     *
     * @param deck the store's deck
     * @param random the seeded random
     * @return the round, drawn from its end
     */
    static List<FaultKind> deal(List<FaultKind> deck, Random random) {
        List<FaultKind> first = new ArrayList<>(new java.util.LinkedHashSet<>(deck));
        List<FaultKind> repeats = new ArrayList<>(deck);
        first.forEach(repeats::remove);
        java.util.Collections.shuffle(first, random);
        java.util.Collections.shuffle(repeats, random);
        List<FaultKind> round = new ArrayList<>(repeats);
        round.addAll(first); // drawn first
        return round;
    }

    private void sleepChecking(long millis, long deadline) {
        long until = Math.min(deadline, System.nanoTime() + millis * 1_000_000);
        while (System.nanoTime() < until) {
            workers.checkHung(tracker);
            Processes.sleep(Math.min(1_000, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
    }

    private void inject(FaultKind kind) {
        String id = "f" + (++faults);
        if (kind.ofDatabase()) {
            Server server = store.lockServer()
                    .orElseThrow(() -> new IllegalStateException(
                            kind.label() + ": " + store.kind().label() + " has no server"));
            begin(id, kind, 0, -1);
            if (kind == FaultKind.STORE_STOP) {
                server.pause(true);
                Processes.sleep(ttl + 500 + random.nextInt(1_000));
                server.pause(false);
            } else {
                server.stop(kind == FaultKind.DB_RESTART);
                if (kind == FaultKind.DB_OUTAGE) {
                    Processes.sleep(ttl + 500 + random.nextInt(1_000));
                }
                server.start();
            }
            heal(id);
            return;
        }
        if (kind == FaultKind.SUBSCRIPTION_CUT) {
            cutSubscriptions(id);
            return;
        }
        if (kind == FaultKind.MEMBER_KILL) {
            killMember(id);
            return;
        }
        WorkerSlot slot = victim();
        if (slot == null) {
            return;
        }
        long pid = slot.pid();
        switch (kind) {
            case KILL9, TERM -> {
                slot.exitExpected = true;
                begin(id, kind, pid, slot.index);
                // kill(2) from this JVM, microseconds after the line above: a forked kill command could land a second
                // later on a loaded machine, while the victim still acts after the moment its history says it died
                ProcessHandle.of(pid).ifPresent(victim -> {
                    if (kind == FaultKind.KILL9) {
                        victim.destroyForcibly();
                    } else {
                        victim.destroy();
                    }
                });
            }
            case STOP -> {
                slot.silenced = true;
                begin(id, kind, pid, slot.index);
                Processes.signal(pid, "STOP");
                Processes.sleep(ttl + 500 + random.nextInt(1_000));
                Processes.signal(pid, "CONT");
                heal(id);
                slot.silenced = false;
            }
            case PARTITION -> {
                slot.silenced = true;
                begin(id, kind, pid, slot.index);
                slot.proxies.forEach(FaultProxy::blackHole); // every server it reaches: cut off from the store
                Processes.sleep(ttl + 500 + random.nextInt(1_500));
                slot.proxies.forEach(FaultProxy::forward);
                heal(id);
                slot.silenced = false;
            }
            case SLOW -> {
                long delay = 100 + random.nextInt(300);
                begin(id, kind, pid, slot.index, "delayMs", delay);
                slot.proxies.forEach(p -> p.slow(delay));
                Processes.sleep(2_000 + random.nextInt(2_000));
                slot.proxies.forEach(FaultProxy::forward);
                heal(id);
            }
            case SESSION_KILL -> {
                begin(id, kind, pid, slot.index);
                int ended = store.database().killSessions(slot.proxy.upstreamPorts());
                log.write(HEAL, "id", id, "sessions", ended); // a kill: over at once
            }
            case READER -> {
                begin(id, kind, pid, slot.index);
                try {
                    Files.writeString(dir.resolve("read-" + pid), "read");
                    Processes.sleep(2_000);
                    Files.deleteIfExists(dir.resolve("read-" + pid));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot ask worker " + pid + " to read the lock files", e);
                }
                heal(id);
            }
            default -> throw new IllegalStateException("not a worker fault: " + kind);
        }
    }

    /**
     * Kills one member of the store's cluster, chosen at random, and starts it again after longer than the ttl: its
     * clients move to the other members, whose quorum keeps every session, lease and lock.
     */
    private void killMember(String id) {
        Cluster cluster =
                store.cluster().orElseThrow(() -> new IllegalStateException("member-kill needs a store on a cluster"));
        int member = random.nextInt(cluster.size());
        begin(id, FaultKind.MEMBER_KILL, 0, -1, "member", member);
        cluster.kill(member);
        Processes.sleep(ttl + 500 + random.nextInt(1_500));
        cluster.start(member);
        heal(id);
    }

    /**
     * Cuts the release-notification subscriptions of every worker (the links Redis lists as subscribed)
     * without closing them, for longer than the ttl: waiters learn of releases by polling only.
     */
    private void cutSubscriptions(String id) {
        List<Integer> subscribers = store.redis()
                .orElseThrow(() -> new IllegalStateException("sub-cut needs the Redis store"))
                .subscriberPorts();
        begin(id, FaultKind.SUBSCRIPTION_CUT, 0, -1, "links", subscribers.size());
        for (WorkerSlot slot : workers.slots()) {
            subscribers.forEach(slot.proxy::cut);
        }
        Processes.sleep(ttl + 500 + random.nextInt(1_500));
        workers.slots().forEach(slot -> slot.proxy.uncut());
        heal(id);
    }

    /**
     * Half of the time the leader of the run's election (when one leads: the takeovers are measured from these
     * faults), else the worker that entered a critical section most recently, else any live one.
     */
    private WorkerSlot victim() {
        tracker.poll();
        Set<Long> alive = workers.alive();
        WorkerSlot leader = tracker.leader(alive).map(workers::slotOf).orElse(null);
        if (leader != null && random.nextBoolean()) { // draws only with a leader: runs without one replay as before
            return leader;
        }
        for (HolderTracker.Holder holder : tracker.holders(alive)) {
            WorkerSlot slot = workers.slotOf(holder.pid());
            if (slot != null) {
                return slot;
            }
        }
        List<WorkerSlot> live =
                workers.slots().stream().filter(WorkerSlot::alive).toList();
        return live.isEmpty() ? null : live.get(random.nextInt(live.size()));
    }

    private void begin(String id, FaultKind kind, long pid, int slot, Object... more) {
        List<Object> fields = new ArrayList<>(List.of("id", id, "kind", kind.label(), "pid", pid, "slot", slot));
        fields.addAll(List.of(more));
        long at = log.write(FAULT, fields.toArray());
        System.out.println(String.format(Locale.ROOT, "  %s %s%s", id, kind.label(), pid > 0 ? " of pid " + pid : "")
                + " at " + at / 1_000_000 + " ms");
    }

    private void heal(String id) {
        log.write(HEAL, "id", id);
    }
}
