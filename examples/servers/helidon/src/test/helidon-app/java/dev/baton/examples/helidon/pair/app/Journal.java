package dev.baton.examples.helidon.pair.app;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.event.LockAcquired;
import dev.baton.event.ScheduleSkipped;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runs of the jobs, in the table {@code pair_run} of the database both instances share (plain JDBC; the
 * test creates the table): job, instance, planned time, firing time, the fencing token of the lock the run held
 * ({@code Locks.current()}: the schedule's run lock). The planned time is the one Baton claimed for the firing
 * ({@code <key>@<epoch ms>}, seen as a {@link LockAcquired} event on the firing's thread just before the run);
 * a run without a claim (no {@code @Exclusive}) counts its firing time's period of 2 s.
 */
@ApplicationScoped
public class Journal {

    private static final long PERIOD_MILLIS = 2_000;
    private static final ThreadLocal<Long> CLAIMED = new ThreadLocal<>();

    /** Skipped firings of this instance: {@code <schedule key> <reason>} to their number. */
    private final Map<String, AtomicInteger> skips = new ConcurrentSkipListMap<>();

    @Inject
    Locks locks;

    @Inject
    @ConfigProperty(name = "pair.instance")
    String instance;

    @Inject
    @ConfigProperty(name = "pair.jdbc.url")
    String url;

    /** Baton's claim of a planned time, {@code schedule:...@<epoch ms>}: taken on the firing's thread. */
    void claimed(@Observes LockAcquired acquired) {
        String key = acquired.key();
        int at = key.lastIndexOf('@');
        if (key.startsWith("schedule:") && at > 0) {
            CLAIMED.set(Long.parseLong(key.substring(at + 1)));
        }
    }

    void skipped(@Observes ScheduleSkipped skipped) {
        String key = skipped.key();
        int at = key.lastIndexOf('@');
        String schedule = at > 0 ? key.substring(0, at) : key;
        skips.computeIfAbsent(schedule + " " + skipped.reason(), k -> new AtomicInteger())
                .incrementAndGet();
    }

    /** @return one line per schedule and reason: {@code <schedule key> <reason>=<skipped firings>} */
    String skips() {
        return skips.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().get())
                .collect(Collectors.joining("\n"));
    }

    void ran(String job, String detail) {
        long fired = System.currentTimeMillis();
        Long claimed = CLAIMED.get();
        CLAIMED.remove();
        Optional<Lock> lock = locks.current();
        long planned = claimed != null ? claimed : Math.floorDiv(fired, PERIOD_MILLIS) * PERIOD_MILLIS;
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement insert = c.prepareStatement("INSERT INTO pair_run"
                        + " (job, instance, planned_ms, claimed, fired_ms, lock_key, token, detail)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, job);
            insert.setString(2, instance);
            insert.setLong(3, planned);
            insert.setBoolean(4, claimed != null);
            insert.setLong(5, fired);
            insert.setString(6, lock.map(Lock::key).orElse("-"));
            insert.setLong(7, lock.map(Lock::fencingToken).orElse(0L));
            insert.setString(8, detail);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot journal the run of " + job, e);
        }
    }

    /**
     * @return one line per run, in the order they were written:
     *     {@code <id> <job> <instance> planned=<ms> claimed=<b> fired=<ms> token=<n> key=<key> <detail>}
     */
    String list() {
        StringBuilder lines = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement select = c.prepareStatement("SELECT id, job, instance, planned_ms, claimed, fired_ms,"
                        + " token, lock_key, detail FROM pair_run ORDER BY id");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                lines.append(rows.getLong(1)).append(' ').append(rows.getString(2)).append(' ')
                        .append(rows.getString(3)).append(" planned=").append(rows.getLong(4))
                        .append(" claimed=").append(rows.getBoolean(5)).append(" fired=").append(rows.getLong(6))
                        .append(" token=").append(rows.getLong(7)).append(" key=").append(rows.getString(8))
                        .append(' ').append(rows.getString(9)).append('\n');
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the journal", e);
        }
        return lines.toString();
    }

    String instance() {
        return instance;
    }
}
