package dev.baton.impl.logging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockStoreException;
import dev.baton.spi.KeyFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
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
        BatonLog.lockLost(KeyFormat.PLAIN, "orders:1", 12_345, "its lease ran out");
        LogRecord record = only();
        assertThat(record.getLevel()).isEqualTo(Level.WARNING);
        assertThat(record.getMessage()).isEqualTo("BATON-002 Lock ''{0}'' (fencing token {1}) was lost: {2}");
        assertThat(record.getParameters()).containsExactly("orders:1", "12345", "its lease ran out");
        assertThat(record.getThrown()).isNull();
    }

    @Test
    void aMessageWithACauseIsWrittenOutAsBefore() {
        RuntimeException failure = new RuntimeException("down");
        BatonLog.renewalFailed(KeyFormat.PLAIN, "it's {0}", failure);
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
        BatonLog.keepFailed(KeyFormat.PLAIN, "k", 1_500_000, failure);
        assertThat(only().getMessage())
                .isEqualTo("BATON-040 Setting the hold of lock 'k' to 1500000 ms failed; it is not released and"
                        + " expires by itself at the end of its current lease");
    }

    @Test
    void theCauseCanBeAnArgumentToo() {
        IllegalStateException failure = new IllegalStateException("no store");
        BatonLog.scheduleUnguarded("Reports.run", KeyFormat.PLAIN, "reports", failure);
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
        BatonLog.scheduleHeldElsewhere("Reports.run", KeyFormat.PLAIN, "reports", OptionalLong.of(250));
        assertThat(only().getLevel()).isEqualTo(Level.FINE);
        assertThat(only().getMessage())
                .isEqualTo("BATON-041 Skipped this firing of Reports.run: its run lock 'reports' is held"
                        + " elsewhere (a run in progress, or its hold) for 250 ms more");
        records.clear();
        BatonLog.schedulePlannedTimeClaimed(
                "Reports.run", KeyFormat.PLAIN, "reports@1767229200000", OptionalLong.of(9_000));
        assertThat(only().getLevel()).isEqualTo(Level.FINE);
        assertThat(only().getMessage())
                .isEqualTo("BATON-043 Skipped this firing of Reports.run: its planned time was claimed already"
                        + " ('reports@1767229200000', kept for 9000 ms more)");
        records.clear();
        logger.setLevel(Level.INFO);
        BatonLog.scheduleHeldElsewhere("Reports.run", KeyFormat.PLAIN, "reports", OptionalLong.empty());
        BatonLog.schedulePlannedTimeClaimed(
                "Reports.run", KeyFormat.PLAIN, "reports@1767229200000", OptionalLong.empty());
        assertThat(records).isEmpty();
    }

    @Test
    void keyOfNoManager() {
        BatonLog.keyOfNoManager("baton.reprts.ttl", "reprts", List.of("reports"), Optional.of("baton.reports.ttl"));
        assertThat(only().getMessage())
                .isEqualTo("BATON-081 The configuration key baton.reprts.ttl has no effect: there is no manager"
                        + " named 'reprts' (baton.managers is reports); did you mean baton.reports.ttl?");
    }

    private static final String KEY = "customer:ann@example.com";

    /** Every method of {@link BatonLog} that names a key, each called once with {@link #KEY}. */
    private static void logEveryLineThatNamesAKey(KeyFormat keys) {
        LockStoreException cause = new LockStoreException(
                "The lock store failed renewing '" + KEY + "'",
                new SQLException("duplicate key value violates unique constraint; Key (lock_key)=(" + KEY + ")"));
        BatonLog.lockLost(keys, KEY, 7, "the store says another owner holds '" + KEY + "'");
        BatonLog.renewalFailed(keys, KEY, cause);
        BatonLog.releaseFailed(keys, KEY, cause);
        BatonLog.leaveTurnFailed(keys, KEY, cause);
        BatonLog.listenerFailed("acquired", keys, KEY, cause);
        BatonLog.leftToExpire(keys, KEY, 7, 5_000);
        BatonLog.acquiredTooLate(keys, KEY, 31_000, 30_000);
        BatonLog.keepFailed(keys, KEY, 1_000, cause);
        BatonLog.scheduleHeldElsewhere("Reports.run", keys, KEY, OptionalLong.of(5));
        BatonLog.schedulePlannedTimeClaimed("Reports.run", keys, KEY, OptionalLong.of(5));
        BatonLog.scheduleUnguarded("Reports.run", keys, KEY, cause);
        BatonLog.debug(keys, KEY, "Releasing lock '" + KEY + "' took long");
        BatonLog.forcedRelease("", keys, KEY, 7, "thread 'main', principal 'ops'");
        BatonLog.leadershipGranted(keys, KEY, "", 7);
        BatonLog.leadershipRevoked(keys, KEY, "", 7, "Lock 'leader:" + KEY + "' was lost", true);
        BatonLog.standbyFailed(keys, KEY, "", cause, 1_000);
        BatonLog.followerSkipped("Reports.run", keys, KEY);
    }

    /** How many methods {@link #logEveryLineThatNamesAKey} calls: a new one that names a key must be added there. */
    private static final int LINES_THAT_NAME_A_KEY = 17;

    @Test
    void everyMethodThatNamesAKeyIsCoveredHere() {
        long withKeyFormat = java.util.Arrays.stream(BatonLog.class.getDeclaredMethods())
                .filter(m -> java.lang.reflect.Modifier.isPublic(m.getModifiers()))
                .filter(m -> java.util.Arrays.asList(m.getParameterTypes()).contains(KeyFormat.class))
                .count();
        assertThat(withKeyFormat).isEqualTo(LINES_THAT_NAME_A_KEY);
        logEveryLineThatNamesAKey(KeyFormat.PLAIN);
        assertThat(records).hasSize(LINES_THAT_NAME_A_KEY);
    }

    @Test
    void plainLinesNameTheKeyAsToday() {
        logEveryLineThatNamesAKey(KeyFormat.PLAIN);
        assertThat(records).allSatisfy(record -> assertThat(written(record)).contains(KEY));
        assertThat(records)
                .filteredOn(r -> r.getThrown() != null)
                .allSatisfy(r -> assertThat(r.getThrown()).isInstanceOf(LockStoreException.class));
    }

    @Test
    void hashedLinesNameTheHashInTheirTextArgumentsAndCauses() {
        logEveryLineThatNamesAKey(KeyFormat.HASH);
        assertThat(records)
                .hasSize(LINES_THAT_NAME_A_KEY)
                .allSatisfy(record -> assertThat(written(record))
                        .doesNotContain("ann@example.com")
                        .contains("sha256:3d3fa0fad987f9a9"));
    }

    @Test
    void maskedLinesKeepOnlyThePrefix() {
        logEveryLineThatNamesAKey(KeyFormat.MASKED);
        assertThat(records)
                .hasSize(LINES_THAT_NAME_A_KEY)
                .allSatisfy(record -> assertThat(written(record))
                        .doesNotContain("ann@example.com")
                        .contains("customer:***"));
    }

    @Test
    void aRedactedCausePrintsAsTheOriginalWithItsTypesAndStackTrace() {
        LockStoreException cause = new LockStoreException(
                "failed renewing '" + KEY + "'", new SQLException("Key (lock_key)=(" + KEY + ")"));
        BatonLog.renewalFailed(KeyFormat.MASKED, KEY, cause);
        Throwable logged = only().getThrown();
        assertThat(logged.toString()).isEqualTo("dev.baton.LockStoreException: failed renewing 'customer:***'");
        assertThat(logged.getStackTrace()).isEqualTo(cause.getStackTrace());
        assertThat(logged.getCause().toString()).isEqualTo("java.sql.SQLException: Key (lock_key)=(customer:***)");
    }

    @Test
    void aCauseThatNamesNoKeyIsLoggedItself() {
        RuntimeException failure = new RuntimeException("connection refused");
        BatonLog.renewalFailed(KeyFormat.HASH, KEY, failure);
        assertThat(only().getThrown()).isSameAs(failure);
    }

    /** The line as a log file shows it: the formatted message and the cause's stack trace. */
    private static String written(LogRecord record) {
        StringBuilder out = new StringBuilder(new SimpleFormatter().formatMessage(record));
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            record.getThrown().printStackTrace(new PrintWriter(trace));
            out.append('\n').append(trace);
        }
        return out.toString();
    }
}
