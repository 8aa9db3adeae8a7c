package dev.baton.impl.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.WithConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With a real JTA transaction manager (Narayana): a {@code @Leader} method that runs in a transaction ties it to
 * the term's lock, so a term that ends before the commit (the lock lost, a step-down) rolls the transaction back;
 * a term that lasts lets it commit.
 */
@BatonTest
@WithConfig({"baton.ttl=2s", "baton.renew-interval=50ms"})
@AddBeanClasses({LeaderTransactionTest.Relay.class, LeaderTransactionTest.Jta.class})
class LeaderTransactionTest {

    static final String ELECTION = "tx-relay";

    public static class Jta {
        @Produces
        @Singleton
        TransactionSynchronizationRegistry registry() {
            return new TransactionSynchronizationRegistryImple();
        }

        @Produces
        @Singleton
        FaultyStore store() {
            return new FaultyStore();
        }
    }

    @ApplicationScoped
    public static class Relay {
        @Leader(ELECTION)
        public String relay() {
            return "relayed";
        }
    }

    private final TransactionManager tm = com.arjuna.ats.jta.TransactionManager.transactionManager();

    @Inject
    Relay relay;

    @Inject
    Locks locks;

    @Inject
    FaultyStore store;

    private Leadership leadership;

    @BeforeEach
    void leading() {
        leadership = locks.lead(ELECTION);
        await().atMost(Duration.ofSeconds(10)).until(leadership::isLeader);
    }

    @AfterEach
    void noTransactionLeftOver() throws Exception {
        store.renewAnswersFalse = false;
        if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
            tm.rollback();
        }
    }

    @Test
    void aTermThatLastsLetsTheTransactionCommit() throws Exception {
        tm.begin();
        assertThat(relay.relay()).isEqualTo("relayed");
        tm.commit();
        assertThat(leadership.isLeader()).isTrue();
    }

    @Test
    void aTermLostBeforeTheCommitRollsTheTransactionBack() throws Exception {
        long token = leadership.token().getAsLong();
        tm.begin();
        assertThat(relay.relay()).isEqualTo("relayed");
        java.util.concurrent.CompletableFuture<Leadership.Revocation> revoked =
                leadership.whenRevoked().toCompletableFuture();
        store.renewAnswersFalse = true; // the store says another owner holds the lock
        // Not isLeader(): this faulty store grants the lock again at once, so the candidacy may lead again
        // (a new term, a new token) before anyone looks.
        Leadership.Revocation revocation = revoked.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(revocation.reason()).isEqualTo(Leadership.Reason.LOST);
        assertThat(revocation.token()).isEqualTo(token);
        assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        store.renewAnswersFalse = false;
        await().atMost(Duration.ofSeconds(10)).until(leadership::isLeader);
        assertThat(leadership.token().getAsLong()).as("a new term").isGreaterThan(token);
    }

    @Test
    void aStepDownBeforeTheCommitRollsTheTransactionBack() throws Exception {
        tm.begin();
        assertThat(relay.relay()).isEqualTo("relayed");
        leadership.stepDown(Duration.ofMinutes(1));
        assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        tm.begin();
        assertThat(relay.relay()).as("a follower skips").isNull();
        tm.commit();
    }
}
