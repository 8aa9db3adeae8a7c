package dev.baton.impl.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Leadership.Reason;
import dev.baton.Locks;
import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.impl.time.EngineTime;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three application instances (three Weld containers, three Baton runtimes) on one shared memory store and
 * one virtual time: each joins the election of its {@code @Leader} method when it starts; calls run in the
 * leader only; the leader's shutdown revokes it (the event told while its lock is still held) and another
 * instance takes over.
 */
class LeaderInstancesTest {

    static final int INSTANCES = 3;
    static final String ELECTION = "outbox-relay";

    static final VirtualTime TIME = new VirtualTime();
    static final MemoryLockStore SHARED = new MemoryLockStore(TIME::nanoTime);
    /** What each instance did, as "instance: what". */
    static final Queue<String> JOURNAL = new ConcurrentLinkedQueue<>();

    public static class Shared {
        @Produces
        @Singleton
        LockStore store() {
            return SHARED;
        }

        @Produces
        @Singleton
        EngineTime time() {
            return TIME;
        }
    }

    @ApplicationScoped
    public static class Relay {
        @Inject
        Locks locks;

        private String instance;

        public void name(String name) {
            instance = name;
        }

        public Leadership candidacy() {
            return locks.lead(ELECTION);
        }

        @Leader(ELECTION)
        public String relay() {
            JOURNAL.add(instance + ": relayed");
            return instance;
        }

        void granted(@Observes LeadershipGranted granted) {
            JOURNAL.add(instance + ": granted " + granted.name());
        }

        void revoked(@Observes LeadershipRevoked revoked) {
            boolean held =
                    SHARED.inspect(Leadership.KEY_PREFIX + revoked.name()).isPresent();
            JOURNAL.add(instance + ": revoked " + revoked.reason() + (held ? " while held" : " after release"));
        }
    }

    private final List<WeldContainer> containers = new ArrayList<>();

    @BeforeEach
    void start() {
        JOURNAL.clear();
        TestConfig.install("baton.ttl=3s", "baton.shutdown-grace=1s");
        for (int i = 0; i < INSTANCES; i++) {
            WeldContainer container =
                    Deployments.weld(Shared.class, Relay.class).initialize();
            container.select(Relay.class).get().name("I" + i);
            containers.add(container);
        }
    }

    @AfterEach
    void stop() {
        containers.forEach(c -> {
            if (c.isRunning()) {
                c.close();
            }
        });
        TestConfig.uninstall();
    }

    @Test
    void callsRunInTheLeaderOnlyAndAnotherTakesOverWhenItStops() {
        List<Relay> relays =
                containers.stream().map(c -> c.select(Relay.class).get()).toList();
        List<Leadership> candidacies = relays.stream().map(Relay::candidacy).toList();
        VirtualTime.awaitReal(() -> candidacies.stream().anyMatch(Leadership::isLeader), "a leader");
        int leader = leaderIndex(candidacies);
        for (int round = 0; round < 20; round++) {
            step(500);
            assertThat(candidacies.stream().filter(Leadership::isLeader).count())
                    .as("leaders in round %d", round)
                    .isEqualTo(1);
            List<String> ran = new ArrayList<>();
            for (Relay relay : relays) {
                String result = relay.relay(); // null: skipped in a follower
                if (result != null) {
                    ran.add(result);
                }
            }
            assertThat(ran).as("runs in round %d", round).containsExactly("I" + leader);
        }
        String leaderName = "I" + leader;
        containers.get(leader).close();
        assertThat(JOURNAL)
                .as("the stopping leader was told while its lock was still held")
                .contains(leaderName + ": revoked " + Reason.SHUTDOWN + " while held");
        List<Leadership> others = new ArrayList<>(candidacies);
        others.remove(leader);
        VirtualTime.awaitReal(() -> others.stream().anyMatch(Leadership::isLeader), "a new leader");
        int next = candidacies.indexOf(
                others.stream().filter(Leadership::isLeader).findFirst().orElseThrow());
        assertThat(next).isNotEqualTo(leader);
        VirtualTime.awaitReal(() -> JOURNAL.contains("I" + next + ": granted " + ELECTION), "the grant told");
        assertThat(relays.get(next).relay()).isEqualTo("I" + next);
        // The first grant may come before the test named the instances (it joins as it starts): its name is then
        // null. The second came after.
        assertThat(JOURNAL.stream().filter(line -> line.endsWith(": granted " + ELECTION)))
                .as("one grant per term")
                .hasSize(2)
                .first()
                .isIn(leaderName + ": granted " + ELECTION, "null: granted " + ELECTION);
        assertThat(JOURNAL.stream().filter(line -> line.endsWith(": granted " + ELECTION)))
                .last()
                .isEqualTo("I" + next + ": granted " + ELECTION);
    }

    /**
     * Moves virtual time in 100 ms steps, giving Baton's store-call threads (real) a moment after each to finish
     * the renewals it started: they take microseconds, against a lease of 3 s.
     */
    private static void step(long millis) {
        for (long done = 0; done < millis; done += 100) {
            TIME.advanceMillis(100);
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static int leaderIndex(List<Leadership> candidacies) {
        for (int i = 0; i < candidacies.size(); i++) {
            if (candidacies.get(i).isLeader()) {
                return i;
            }
        }
        throw new AssertionError("no leader");
    }
}
