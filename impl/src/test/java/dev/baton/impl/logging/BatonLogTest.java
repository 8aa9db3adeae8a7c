package dev.baton.impl.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BatonLog} logs through {@link BatonMessage} the records it logged before the registry: the same level,
 * message, parameters (kept apart where the backend formats them) and cause, as {@code java.util.logging} gets
 * them.
 */
class BatonLogTest {

    private final Logger logger = Logger.getLogger("dev.baton");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Level before;

    @BeforeEach
    void listen() {
        before = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    @AfterEach
    void stop() {
        logger.removeHandler(handler);
        logger.setLevel(before);
    }

    private LogRecord only() {
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    @Test
    void parametersStayApartForTheBackend() {
        BatonLog.lockLost("orders:1", 12_345, "its lease ran out");
        LogRecord record = only();
        assertThat(record.getLevel()).isEqualTo(Level.WARNING);
        assertThat(record.getMessage()).isEqualTo("BATON-002 Lock ''{0}'' (fencing token {1}) was lost: {2}");
        assertThat(record.getParameters()).containsExactly("orders:1", "12345", "its lease ran out");
        assertThat(record.getThrown()).isNull();
    }

    @Test
    void aMessageWithACauseIsWrittenOutAsBefore() {
        RuntimeException failure = new RuntimeException("down");
        BatonLog.renewalFailed("it's {0}", failure);
        LogRecord record = only();
        assertThat(record.getLevel()).isEqualTo(Level.WARNING);
        assertThat(record.getMessage())
                .isEqualTo("BATON-003 Renewing lock 'it's {0}' failed; retrying until its lease is over");
        assertThat(record.getParameters()).isNullOrEmpty();
        assertThat(record.getThrown()).isSameAs(failure);
    }

    @Test
    void numbersAreWrittenWithoutALocalesGrouping() {
        RuntimeException failure = new RuntimeException("down");
        BatonLog.keepFailed("k", 1_500_000, failure);
        assertThat(only().getMessage())
                .isEqualTo("BATON-040 Setting the hold of lock 'k' to 1500000 ms failed; it is not released and"
                        + " expires by itself at the end of its current lease");
    }

    @Test
    void theCauseCanBeAnArgumentToo() {
        IllegalStateException failure = new IllegalStateException("no store");
        BatonLog.scheduleUnguarded("Reports.run", "reports", failure);
        LogRecord record = only();
        assertThat(record.getLevel()).isEqualTo(Level.SEVERE);
        assertThat(record.getMessage())
                .isEqualTo("BATON-042 Skipped this firing of Reports.run: its schedule lock 'reports' could not be"
                        + " taken (java.lang.IllegalStateException: no store), and the method is never run unguarded");
        assertThat(record.getThrown()).isSameAs(failure);
    }

    @Test
    void messagesWithoutArguments() {
        BatonLog.memoryStoreByDefault();
        assertThat(only().getMessage()).startsWith("BATON-020 No lock store is configured (baton.store) and");
    }

    @Test
    void debugMessagesAreBuiltOnlyWhenLogged() {
        BatonLog.scheduleHeldElsewhere("Reports.run", "reports", OptionalLong.of(250));
        assertThat(only().getLevel()).isEqualTo(Level.FINE);
        assertThat(only().getMessage())
                .isEqualTo("BATON-041 Skipped this firing of Reports.run: its run lock 'reports' is held"
                        + " elsewhere (a run in progress, or its hold) for 250 ms more");
        records.clear();
        BatonLog.schedulePlannedTimeClaimed("Reports.run", "reports@1767229200000", OptionalLong.of(9_000));
        assertThat(only().getLevel()).isEqualTo(Level.FINE);
        assertThat(only().getMessage())
                .isEqualTo("BATON-043 Skipped this firing of Reports.run: its planned time was claimed already"
                        + " ('reports@1767229200000', kept for 9000 ms more)");
        records.clear();
        logger.setLevel(Level.INFO);
        BatonLog.scheduleHeldElsewhere("Reports.run", "reports", OptionalLong.empty());
        BatonLog.schedulePlannedTimeClaimed("Reports.run", "reports@1767229200000", OptionalLong.empty());
        assertThat(records).isEmpty();
    }

    @Test
    void keyOfNoManager() {
        BatonLog.keyOfNoManager("baton.reprts.ttl", "reprts", List.of("reports"), Optional.of("baton.reports.ttl"));
        assertThat(only().getMessage())
                .isEqualTo("BATON-081 The configuration key baton.reprts.ttl has no effect: there is no manager"
                        + " named 'reprts' (baton.managers is reports); did you mean baton.reports.ttl?");
    }
}
