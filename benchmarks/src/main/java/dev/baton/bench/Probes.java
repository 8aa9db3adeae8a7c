package dev.baton.bench;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.impl.store.memory.MemoryLockStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The measures that are not a rate or a latency of one call, each run by {@link BenchRunner} in a JVM of
 * its own (so neither JMH nor another probe shares its heap or threads). Each prints its figures as
 * {@code FIGURE} lines of tab-separated fields, which the runner reads.
 *
 * <ul>
 * <li>{@code heap <store> <locks> <ttlMillis>}: heap per held lock — used heap after full GCs before and
 * after acquiring {@code locks} keys through one engine and holding them for one renewal interval — and the
 * threads alive then (Baton's renewal and store-call threads, by name);</li>
 * <li>{@code renewal <store> <locks> <ttlMillis> <intervals>} (postgresql, redis): round trips of renewal
 * per 1,000 held locks per renewal interval, counted by the server over a window in which the only client is
 * the engine renewing: PostgreSQL's {@code pg_stat_statements} calls (where the server loaded it) and
 * {@code pg_stat_database.xact_commit}; Redis' {@code INFO commandstats} calls of {@code EVALSHA} and
 * {@code EVAL} (each a round trip; the commands the scripts run inside are listed in the note);</li>
 * <li>{@code fairness <store> <engines> <sectionMillis> <seconds>}: that many engines (separate
 * instances, each its own store and entity manager factory; {@code file}: four file stores on one directory) each
 * with one thread taking one key in a loop
 * and holding it {@code sectionMillis}: waits p50/p99/max and timeouts (10 s).</li>
 * </ul>
 */
public final class Probes {

    private Probes() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "heap" -> heap(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]));
            case "renewal" -> {
                if (args[1].equals("redis")) {
                    renewalRedis(Integer.parseInt(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]));
                } else {
                    renewal(Integer.parseInt(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]));
                }
            }
            case "fairness" ->
                fairness(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), Long.parseLong(args[4]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.exit(0);
    }

    static void figure(
            String measure,
            String scenario,
            String name,
            double baton,
            double baseline,
            String baselineName,
            double ratio,
            String note) {
        System.out.println(String.join(
                "\t",
                "FIGURE",
                measure,
                scenario,
                name,
                Double.toString(baton),
                Double.toString(baseline),
                baselineName,
                Double.toString(ratio),
                note));
    }

    // --- heap and threads ---

    static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    static int threadsNamed(String prefix) {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix))
                .count();
    }

    static void heap(String store, int count, long ttlMillis) throws Exception {
        try (Bench.Instance instance = Bench.instance(store, "bench_heap", null)) {
            String run = Bench.runId();
            for (int i = 0; i < 200; i++) { // warm-up: classes, pools, statements
                instance.engine()
                        .acquire("heap-warm-" + run + "-" + i, ttlMillis, 0, false)
                        .close();
            }
            int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
            ManagementFactory.getThreadMXBean().resetPeakThreadCount();
            long before = usedHeapAfterGc();
            List<Lock> held = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                // waiting allowed: a try can be refused while a renewal batch holds row locks (see BENCHMARKS.md)
                held.add(instance.engine().acquire("heap-" + run + "-" + i, ttlMillis, Bench.TIMEOUT_MILLIS, true));
            }
            // one renewal interval (a third of the lease) with all of them held, so renewals run
            Thread.sleep(ttlMillis / 3 + ttlMillis / 6);
            long after = usedHeapAfterGc();
            int renewal = threadsNamed("baton-renewal-");
            int storeCalls = threadsNamed("baton-store-call-");
            int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
            int peak = ManagementFactory.getThreadMXBean().getPeakThreadCount();
            // the list of Lock references is the application's, not Baton's: 4 or 8 bytes each, left in
            double perLock = (double) (after - before) / count;
            figure(
                    "heap per held lock",
                    store + ", " + count + " held",
                    "bytes/lock",
                    perLock,
                    Double.NaN,
                    "—",
                    Double.NaN,
                    "used heap after System.gc() before/after (MemoryMXBean), ttl " + ttlMillis
                            + " ms; target <= 400 B");
            figure(
                    "renewal threads in the JVM",
                    store + ", " + count + " held",
                    "threads",
                    renewal + storeCalls,
                    2,
                    "the scheduler's size",
                    (renewal + storeCalls) / 2.0,
                    "alive after one renewal interval: " + renewal + " baton-renewal + " + storeCalls
                            + " baton-store-call; all threads " + threadsBefore + " -> " + threadsAfter + ", peak "
                            + peak);
            for (Lock lock : held) {
                lock.close();
            }
        }
    }

    // --- renewal round trips ---

    static void renewal(int count, long ttlMillis, int intervals) throws Exception {
        String store = "postgresql";
        boolean statements;
        try (Connection c = Bench.connect(store);
                Statement st = c.createStatement()) {
            try {
                st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
                st.executeQuery("SELECT count(*) FROM pg_stat_statements").close();
                statements = true;
            } catch (SQLException e) {
                statements = false; // not preloaded on this server: transactions only
            }
        }
        long interval = ttlMillis / 3;
        try (Bench.Instance instance = Bench.instance(store, "bench_renewal", null);
                Connection c = Bench.connect(store);
                Statement st = c.createStatement()) {
            String run = Bench.runId();
            List<Lock> held = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                held.add(instance.engine().acquire("renewal-" + run + "-" + i, ttlMillis, Bench.TIMEOUT_MILLIS, true));
            }
            Thread.sleep(interval); // the renewals settle into their rhythm
            if (statements) {
                st.execute("SELECT pg_stat_statements_reset()");
            }
            long commits0 = commits(st);
            long started = System.nanoTime();
            Thread.sleep(interval * intervals);
            double elapsedIntervals = (System.nanoTime() - started) / 1e6 / interval;
            long commits = commits(st) - commits0 - 1; // less the probe's own reading
            double per1000 = 1000.0 / count / elapsedIntervals;
            if (statements) {
                long calls = 0;
                StringBuilder what = new StringBuilder();
                try (ResultSet rs = st.executeQuery("SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 40)"
                        + " FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat%' AND dbid = (SELECT oid FROM pg_database"
                        + " WHERE datname = current_database()) ORDER BY calls DESC")) {
                    while (rs.next()) {
                        calls += rs.getLong(1);
                        what.append(what.length() == 0 ? "" : "; ")
                                .append(rs.getLong(1))
                                .append(" x ")
                                .append(rs.getString(2));
                    }
                }
                figure(
                        "renewal, statements per 1,000 held locks per interval",
                        "postgresql, " + count + " held",
                        "statements",
                        calls * per1000,
                        1,
                        "one statement per batch",
                        calls * per1000,
                        "pg_stat_statements calls over " + String.format(Locale.ROOT, "%.1f", elapsedIntervals)
                                + " intervals of " + interval + " ms (BEGIN/COMMIT included where sent): " + what);
            }
            figure(
                    "renewal, transactions per 1,000 held locks per interval",
                    "postgresql, " + count + " held",
                    "transactions",
                    commits * per1000,
                    1,
                    "one statement per batch",
                    commits * per1000,
                    "pg_stat_database.xact_commit delta over " + String.format(Locale.ROOT, "%.1f", elapsedIntervals)
                            + " intervals of " + interval + " ms"
                            + (statements ? "" : " (pg_stat_statements not loaded on this server)"));
            for (Lock lock : held) {
                lock.close();
            }
        }
    }

    static void renewalRedis(int count, long ttlMillis, int intervals) throws Exception {
        long interval = ttlMillis / 3;
        try (Bench.Instance instance = Bench.instance("redis", "bench_renewal", null);
                RawRedis stats = RawRedis.open()) {
            String run = Bench.runId();
            List<Lock> held = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                held.add(instance.engine().acquire("renewal-" + run + "-" + i, ttlMillis, Bench.TIMEOUT_MILLIS, true));
            }
            Thread.sleep(interval); // the renewals settle into their rhythm
            java.util.Map<String, Long> before = commandCalls(stats);
            long started = System.nanoTime();
            Thread.sleep(interval * intervals);
            java.util.Map<String, Long> after = commandCalls(stats);
            double elapsedIntervals = (System.nanoTime() - started) / 1e6 / interval;
            double per1000 = 1000.0 / count / elapsedIntervals;
            StringBuilder what = new StringBuilder();
            long scripts = 0;
            for (java.util.Map.Entry<String, Long> e : after.entrySet()) {
                long calls = e.getValue()
                        - before.getOrDefault(e.getKey(), 0L)
                        - (e.getKey().equals("info") ? 1 : 0);
                if (calls > 0) {
                    what.append(what.length() == 0 ? "" : "; ")
                            .append(calls)
                            .append(" x ")
                            .append(e.getKey());
                    if (e.getKey().equals("evalsha") || e.getKey().equals("eval")) {
                        scripts += calls;
                    }
                }
            }
            figure(
                    "renewal, round trips per 1,000 held locks per interval",
                    "redis, " + count + " held",
                    "script calls",
                    scripts * per1000,
                    1,
                    "one call per batch",
                    scripts * per1000,
                    "INFO commandstats over " + String.format(Locale.ROOT, "%.1f", elapsedIntervals) + " intervals of "
                            + interval + " ms (the probe's own INFO left out; commands run inside scripts listed too): "
                            + what);
            for (Lock lock : held) {
                lock.close();
            }
        }
    }

    /** Calls per command since the server started (or since CONFIG RESETSTAT), from INFO commandstats. */
    private static java.util.Map<String, Long> commandCalls(RawRedis redis) {
        java.util.Map<String, Long> calls = new java.util.TreeMap<>();
        for (String line : redis.commands().info("commandstats").split("\r?\n")) {
            // cmdstat_evalsha:calls=12,usec=...
            if (line.startsWith("cmdstat_")) {
                int colon = line.indexOf(':');
                int from = line.indexOf("calls=") + 6;
                int to = line.indexOf(',', from);
                calls.put(line.substring(8, colon), Long.parseLong(line.substring(from, to)));
            }
        }
        return calls;
    }

    private static long commits(Statement st) throws SQLException {
        st.execute("SELECT pg_stat_clear_snapshot()");
        try (ResultSet rs =
                st.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // --- fairness ---

    static void fairness(String store, int engines, long sectionMillis, long seconds) throws Exception {
        List<Bench.Instance> instances = new ArrayList<>();
        MemoryLockStore shared = store.equals("memory") ? new MemoryLockStore() : null;
        for (int i = 0; i < engines; i++) {
            instances.add(Bench.instance(store, "bench_fairness", shared));
        }
        String key = "fairness-" + Bench.runId();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<long[]> holds = java.util.Collections.synchronizedList(new ArrayList<>()); // acquiredAt, releasedAt
        // askedAt, acquiredAt: whether a contender was overtaken (see overtaken below)
        List<long[]> grants = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> waits = java.util.Collections.synchronizedList(new ArrayList<>());
        int[] timeouts = new int[engines];
        int[] acquisitions = new int[engines];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < engines; i++) {
            int n = i;
            Thread t = new Thread(
                    () -> {
                        while (System.nanoTime() < end) {
                            long asked = System.nanoTime();
                            try (Lock lock = instances
                                    .get(n)
                                    .engine()
                                    .acquire(key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true)) {
                                long got = System.nanoTime();
                                waits.add(got - asked);
                                grants.add(new long[] {asked, got});
                                acquisitions[n]++;
                                Thread.sleep(sectionMillis);
                                holds.add(new long[] {got, System.nanoTime()});
                            } catch (LockTimeoutException e) {
                                waits.add(System.nanoTime() - asked);
                                timeouts[n]++;
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "contender-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Bench.Instance instance : instances) {
            instance.close();
        }
        long[] w = waits.stream().mapToLong(Long::longValue).sorted().toArray();
        List<long[]> h = new ArrayList<>(holds);
        h.sort((a, b) -> Long.compare(a[0], b[0]));
        double sections = 0;
        double gaps = 0;
        for (int i = 0; i < h.size(); i++) {
            sections += h.get(i)[1] - h.get(i)[0];
            if (i > 0) {
                gaps += Math.max(0, h.get(i)[0] - h.get(i - 1)[1]);
            }
        }
        double meanSection = h.isEmpty() ? Double.NaN : sections / h.size() / 1e6;
        double meanHandOff = h.size() < 2 ? Double.NaN : gaps / (h.size() - 1) / 1e6;
        double bound = engines * (meanSection + meanHandOff);
        int timedOut = Arrays.stream(timeouts).sum();
        int overtaken = overtaken(new ArrayList<>(grants), engines);
        String scenario = store + ", " + engines + " engines, " + sectionMillis + " ms sections";
        String shares = Arrays.toString(acquisitions);
        figure(
                "fairness: wait",
                scenario,
                "p50 ms",
                pct(w, 50),
                bound,
                "4 x (section + hand-off)",
                pct(w, 50) / bound,
                w.length + " acquisitions in " + seconds + " s; per engine " + shares);
        figure(
                "fairness: wait",
                scenario,
                "p99 ms",
                pct(w, 99),
                bound,
                "4 x (section + hand-off)",
                pct(w, 99) / bound,
                "target: p99 <= 4 x (mean section " + String.format(Locale.ROOT, "%.2f", meanSection)
                        + " ms + mean hand-off " + String.format(Locale.ROOT, "%.2f", meanHandOff) + " ms)");
        figure(
                "fairness: wait",
                scenario,
                "max ms",
                w.length == 0 ? Double.NaN : w[w.length - 1] / 1e6,
                bound,
                "4 x (section + hand-off)",
                (w.length == 0 ? Double.NaN : w[w.length - 1] / 1e6) / bound,
                "");
        figure(
                "fairness: timeouts",
                scenario,
                "timeouts (10 s)",
                timedOut,
                0,
                "none",
                Double.NaN,
                "per engine " + Arrays.toString(timeouts));
        figure(
                "fairness: overtaken",
                scenario,
                "acquisitions overtaken",
                overtaken,
                0,
                "none",
                Double.NaN,
                "of " + grants.size() + ": more than " + (engines - 1) + " others took the key while one waited");
    }

    /**
     * How many acquisitions waited through more grants to others than a strict queue allows: with {@code
     * engines} contenders that each ask again as soon as they release, a waiter sees at most {@code engines - 1}
     * others take the key before it does. A wait longer than the probe's bound with no overtaking is slow
     * hand-offs, not an unfair order.
     *
     * @param grants askedAt, acquiredAt of each acquisition
     * @param engines how many contenders
     * @return the acquisitions that saw more than {@code engines - 1} grants to others while they waited
     */
    static int overtaken(List<long[]> grants, int engines) {
        long[] starts = grants.stream().mapToLong(g -> g[1]).sorted().toArray();
        int count = 0;
        for (long[] g : grants) {
            // grants strictly after the ask and strictly before this one's own grant
            if (firstAtLeast(starts, g[1]) - firstAtLeast(starts, g[0] + 1) > engines - 1) {
                count++;
            }
        }
        return count;
    }

    /** The index of the first value of {@code sorted} not below {@code value} ({@code sorted.length} if none). */
    private static int firstAtLeast(long[] sorted, long value) {
        int low = 0;
        int high = sorted.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sorted[mid] < value) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
