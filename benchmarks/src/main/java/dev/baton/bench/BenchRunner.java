package dev.baton.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every measure of issue 13 and writes {@code benchmarks.md} and {@code benchmarks.json} to the
 * benchmark directory ({@code baton.bench.dir}). Started by {@code benchmarks/run.sh}:
 *
 * <pre>
 * BenchRunner [--smoke] [--only uncontended,handoff,shared,runtime,synchronized,heap,renewal,fairness,peers] [--stores memory,h2,postgresql,mariadb,redis]
 *             [--peers thread,engine,engine-poll,jvm,raw-retry,raw-notify]
 * </pre>
 *
 * {@code --peers} keeps only those hand-off rows (with the raw ones of the same run that their ratios need).
 * {@code shared} is issue 37's rows: permits, read/write locks and asynchronous acquisition against the mutex.
 * {@code runtime} is issue 38's: the engine's and the API's uncontended cycle against the store's own (SPI) cycle.
 * {@code peers} is issue 38's table of other libraries (ShedLock, Spring Integration, Redisson; {@link Peers}) beside
 * Baton and the raw baselines of the same JMH runs; it is not part of the default run (it only runs when named).
 *
 * {@code --smoke} only proves that everything runs (1 fork, 1 warm-up and 2 measured iterations of 1 s,
 * short probes); its figures are not for comparison. The full run: 2 forks, 3 warm-up and 5 measured
 * iterations of 5 s each. The databases are started once here and passed to the forks by URL.
 */
public final class BenchRunner {

    static final List<String> MEASURES = List.of(
            "uncontended", "handoff", "shared", "runtime", "synchronized", "heap", "renewal", "fairness", "peers");

    /** What runs without {@code --only}: all but {@code peers} (about 80 minutes more in full mode on 3 stores). */
    static final List<String> DEFAULT_MEASURES =
            MEASURES.stream().filter(m -> !m.equals("peers")).toList();

    /** The section of issue 38's peers: other lock libraries beside Baton, each against the raw baselines. */
    static final String PEERS = "Peers beside Baton (issue 38): ShedLock, Spring Integration, Redisson — not Baton";

    /** The section of issue 38's rows: the engine and the programmatic API against the store's own cycle. */
    static final String RUNTIME = "The runtime against its store (issue 38)";

    /** The section of issue 37's rows in the report. */
    static final String SHARED = "Permits, read/write locks, asynchronous acquisition (issue 37)";

    /** The primitives of issue 37's uncontended cycle ({@link UncontendedBench}'s {@code primitive}). */
    static final List<String> PRIMITIVES = List.of("mutex", "permit", "read", "async");

    /** The hand-offs of issue 37 ({@link HandOffBench}'s {@code pair}), each against {@code mutex}. */
    static final List<String> PAIRS = List.of("mutex", "writer-reader", "reader-writer", "permit", "async");

    final boolean smoke;
    final Set<String> only;
    final List<String> stores;
    /** The hand-off peers to run, or null for all. */
    final Set<String> peers;

    final Report report;

    BenchRunner(boolean smoke, Set<String> only, List<String> stores, Set<String> peers) {
        this.smoke = smoke;
        this.only = only;
        this.stores = stores;
        this.peers = peers;
        String mode = smoke
                ? "SMOKE run (1 fork, 1 warm-up + 2 x 1 s, short probes): proves it runs, figures not comparable"
                : "full run (2 forks, 3 warm-up + 5 x 5 s)";
        String pool = Bench.pool().equals("hikari")
                ? "HikariCP (connections lent in auto-commit)"
                : "Hibernate ORM's built-in pool (connections lent with auto-commit off)";
        this.report = new Report(mode + "; the JPA store's persistence unit on " + pool);
    }

    public static void main(String[] args) throws Exception {
        boolean smoke = false;
        Set<String> only = new LinkedHashSet<>(DEFAULT_MEASURES);
        List<String> stores = Bench.STORES;
        Set<String> peers = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--smoke" -> smoke = true;
                case "--only" -> only = new LinkedHashSet<>(Arrays.asList(args[++i].split(",")));
                case "--stores" -> stores = Arrays.asList(args[++i].split(","));
                case "--peers" -> peers = new LinkedHashSet<>(Arrays.asList(args[++i].split(",")));
                case "--pool" -> System.setProperty(Bench.POOL_PROPERTY, args[++i]);
                default ->
                    throw new IllegalArgumentException("unknown argument " + args[i] + "; usage: [--smoke] [--only "
                            + String.join(",", MEASURES) + "] [--stores " + String.join(",", Bench.STORES)
                            + "] [--peers thread,engine,engine-poll,jvm,raw-retry,raw-notify] [--pool "
                            + String.join("|", Bench.POOLS) + "]");
            }
        }
        Bench.pool(); // a wrong --pool fails here, before any database starts
        BenchRunner runner = new BenchRunner(smoke, only, stores, peers);
        runner.run();
        System.exit(0); // the embedded databases' threads
    }

    void run() throws Exception {
        Path dir = Bench.dir();
        Files.createDirectories(dir);
        // one database per run, shared by every fork and probe
        for (String store : stores) {
            if (!store.equals("memory") && !store.equals("file")) {
                System.out.println("Starting " + store + " ...");
                System.out.println("  "
                        + Bench.url(store)
                                .replaceAll("password=[^&]*", "password=…")
                                .replaceAll("//[^@/]*@", "//…@"));
            }
        }
        section("uncontended", this::uncontended);
        section("handoff", this::handOff);
        section("shared", this::shared);
        section("runtime", this::runtime);
        section("synchronized", this::synchronizedOverhead);
        section("heap", this::heap);
        section("renewal", this::renewal);
        section("fairness", this::fairness);
        section("peers", this::peers);
        for (String m : only) {
            if (!MEASURES.contains(m)) {
                report.problem("unknown measure " + m);
            }
        }
        String machine = Runtime.getRuntime().availableProcessors() + " CPUs, " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version")
                + ", load average at the end "
                + String.format(
                        java.util.Locale.ROOT,
                        "%.2f",
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        report.write(dir.resolve("benchmarks.md"), dir.resolve("benchmarks.json"), machine);
        System.out.println("Wrote " + dir.resolve("benchmarks.md") + " and " + dir.resolve("benchmarks.json"));
    }

    interface Section {
        void run() throws Exception;
    }

    void section(String name, Section section) {
        if (!only.contains(name)) {
            return;
        }
        System.out.println("== " + name);
        guarded(name, section);
    }

    /** Runs a part of a measure; a failure is reported as not measured, and the run goes on. */
    void guarded(String what, Section part) {
        try {
            part.run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            report.problem(what + " failed: " + e);
        }
    }

    // --- JMH ---

    /** Options shared by every JMH run: forks, iterations, the databases' URLs and this run's directory. */
    ChainedOptionsBuilder jmh(Class<?> benchmark) {
        return jmh(benchmark, "");
    }

    /** As {@link #jmh(Class)}, only the benchmark methods whose names match {@code methods} (a regular expression). */
    ChainedOptionsBuilder jmh(Class<?> benchmark, String methods) {
        List<String> jvm = new ArrayList<>(Bench.forkProperties(stores));
        String forkArgs = System.getProperty("baton.bench.forkArgs", "").trim(); // BENCH_FORK_ARGS of run.sh
        if (!forkArgs.isEmpty()) {
            jvm.addAll(List.of(forkArgs.split("\\s+")));
        }
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(benchmark.getName() + "\\." + methods)
                .jvmArgsAppend(jvm.toArray(String[]::new))
                .shouldFailOnError(true);
        if (smoke) {
            options.forks(1)
                    .warmupIterations(1)
                    .warmupTime(TimeValue.seconds(1))
                    .measurementIterations(2)
                    .measurementTime(TimeValue.seconds(1));
        } else {
            options.forks(2)
                    .warmupIterations(3)
                    .warmupTime(TimeValue.seconds(5))
                    .measurementIterations(5)
                    .measurementTime(TimeValue.seconds(5));
        }
        return options;
    }

    Collection<RunResult> runJmh(ChainedOptionsBuilder options, String resultName) throws RunnerException {
        options.resultFormat(ResultFormatType.JSON)
                .result(Bench.dir().resolve("jmh-" + resultName + ".json").toString());
        return new Runner(options.build()).run();
    }

    static String method(RunResult r) {
        String b = r.getParams().getBenchmark();
        return b.substring(b.lastIndexOf('.') + 1);
    }

    /**
     * @param params names and values of parameters, alternately
     * @return the result of {@code method} with those parameters, or null
     */
    static RunResult find(Collection<RunResult> results, String method, String... params) {
        next:
        for (RunResult r : results) {
            if (!method(r).equals(method)) {
                continue;
            }
            for (int i = 0; i < params.length; i += 2) {
                if (!params[i + 1].equals(r.getParams().getParam(params[i]))) {
                    continue next;
                }
            }
            return r;
        }
        return null;
    }

    // --- 1. uncontended ---

    void uncontended() throws RunnerException {
        for (int threads : new int[] {1, 4}) {
            ChainedOptionsBuilder options = jmh(UncontendedBench.class)
                    .threads(threads)
                    .param("store", stores.toArray(String[]::new))
                    .param("primitive", "mutex");
            Collection<RunResult> results = runJmh(options, "uncontended-" + threads);
            for (String store : stores) {
                RunResult baton = find(results, "baton", "store", store);
                RunResult raw = find(results, "raw", "store", store);
                if (baton == null || raw == null) {
                    report.problem("uncontended " + store + " " + threads + " threads: no result");
                    continue;
                }
                double b = baton.getPrimaryResult().getScore();
                double r = raw.getPrimaryResult().getScore();
                report.add(new Report.Figure(
                        "uncontended acquire+release",
                        store + ", " + threads + " thread" + (threads > 1 ? "s" : ""),
                        "cycles/s",
                        b,
                        r,
                        rawName(store),
                        b / r,
                        "JMH throughput; ratio Baton/raw (target >= 0.95)"));
            }
            if (stores.contains("redis")) {
                redisson(threads, find(results, "raw", "store", "redis"));
            }
        }
    }

    /** The raw busy-retry waiter's name in the report. */
    static String retryName(String store) {
        return switch (store) {
            case "redis" -> "raw busy retry of SET NX PX";
            case "zookeeper" -> "raw busy retry of create(EPHEMERAL)";
            case "etcd" -> "raw busy retry of the put-if-absent txn";
            case "mongodb" -> "raw busy retry of insertOne";
            default -> "raw busy retry of the upsert";
        };
    }

    /** The raw notified waiter's name in the report. */
    static String notifyName(String store) {
        return switch (store) {
            case "redis" -> "raw pub/sub (release script PUBLISHes)";
            case "zookeeper" -> "raw exists-watch on the node, retry when deleted";
            case "etcd" -> "raw watch on the key's deletions, retry on each";
            default -> "raw LISTEN/NOTIFY";
        };
    }

    static String rawName(String store) {
        return switch (store) {
            case "memory" -> "ConcurrentHashMap putIfAbsent+remove";
            case "redis" -> "raw SET NX PX + compare-and-delete EVALSHA, Lettuce";
            case "zookeeper" -> "raw create(EPHEMERAL) + delete, ZooKeeper's client";
            case "etcd" -> "raw put-if-absent txn (lease) + delete-if-owner txn, jetcd";
            case "mongodb" -> "raw insertOne + deleteOne, MongoDB driver (in-process mongo-java-server)";
            default -> "raw upsert+update, JDBC autocommit";
        };
    }

    /** Issue 11's peer: Redisson's RLock lock+unlock, against the raw Redis lock of the same run. */
    void redisson(int threads, RunResult raw) throws RunnerException {
        Collection<RunResult> results = runJmh(jmh(RedissonBench.class).threads(threads), "redisson-" + threads);
        RunResult redisson = find(results, "redisson");
        if (redisson == null || raw == null) {
            report.problem("uncontended Redisson " + threads + " threads: no result");
            return;
        }
        double p = redisson.getPrimaryResult().getScore();
        double r = raw.getPrimaryResult().getScore();
        report.add(new Report.Figure(
                "uncontended acquire+release: peer",
                "Redisson RLock lock+unlock, " + threads + " thread" + (threads > 1 ? "s" : ""),
                "cycles/s",
                p,
                r,
                rawName("redis"),
                p / r,
                "JMH throughput; not Baton: Redisson "
                        + org.redisson.Redisson.class.getPackage().getImplementationVersion()
                        + " (watchdog lock), ratio Redisson/raw; compare with the redis row above"));
    }

    // --- 2, 3. hand-off ---

    void handOff() throws RunnerException {
        for (String store : stores) {
            List<String> peers = new ArrayList<>(List.of("thread", "engine"));
            if (Bench.shareable(store)) {
                peers.add("jvm");
            }
            peers.add("raw-retry");
            if (store.equals("postgresql") || store.equals("redis")) {
                peers.add(1 + peers.indexOf("engine"), "engine-poll"); // the same hand-off, polling only
                peers.add("raw-notify");
            } else if (store.equals("zookeeper") || store.equals("etcd")) {
                peers.add("raw-notify"); // the waiter woken by a watch of the store's own client
            }
            Collection<RunResult> results = handOffRun("handOff", store, peers, "handoff-");
            RunResult retry = find(results, "handOff", "peer", "raw-retry");
            RunResult notify = find(results, "handOff", "peer", "raw-notify");
            for (String peer : peers) {
                if (peer.startsWith("raw-")) {
                    continue;
                }
                RunResult r = find(results, "handOff", "peer", peer);
                if (r == null) {
                    report.problem("hand-off " + store + " " + peer + ": no result");
                    continue;
                }
                String measure = peer.equals("thread")
                        ? "hand-off, two threads of one JVM"
                        : peer.equals("engine")
                                ? "hand-off, two instances (engines) in one JVM"
                                : peer.equals("engine-poll")
                                        ? "hand-off, two instances (engines) in one JVM, polling only"
                                        : "hand-off, second JVM";
                long samples = r.getPrimaryResult().getSampleCount();
                for (double p : new double[] {50, 99}) {
                    String name = "p" + (int) p + " ms";
                    double b = percentile(r, p);
                    String how = "JMH sample time, " + samples + " hand-offs, holder keeps the key 20 ms first";
                    if (peer.equals("thread") || retry == null) {
                        report.add(new Report.Figure(measure, store, name, b, Double.NaN, "—", Double.NaN, how));
                        continue;
                    }
                    double raw = percentile(retry, p);
                    report.add(new Report.Figure(
                            measure, store, name, b, raw, retryName(store), b / raw, how + "; ratio Baton/raw"));
                    if (notify != null) {
                        double n = percentile(notify, p);
                        report.add(new Report.Figure(
                                measure, store, name, b, n, notifyName(store), b / n, how + "; ratio Baton/raw"));
                    }
                }
            }
            if (store.equals("postgresql") || store.equals("redis")) {
                releaseCall(store);
            }
        }
    }

    /**
     * One JMH run of a {@link HandOffBench} method for the mutex, with these peers (those named by {@code --peers}
     * only, when given).
     */
    Collection<RunResult> handOffRun(String method, String store, List<String> peers, String name)
            throws RunnerException {
        if (this.peers != null) {
            peers.retainAll(this.peers);
        }
        ChainedOptionsBuilder options = jmh(HandOffBench.class, method)
                .param("store", store)
                .param("peer", peers.toArray(String[]::new))
                .param("pair", "mutex");
        return runJmh(options, name + store);
    }

    /**
     * Issue 38, target 2: the holder's release call alone while a waiter of another instance waits, against the raw
     * release that notifies its raw waiter ({@code raw-notify}), in one JMH run ({@link HandOffBench#release()}).
     */
    void releaseCall(String store) throws RunnerException {
        Collection<RunResult> results =
                handOffRun("release", store, new ArrayList<>(List.of("engine", "raw-notify")), "release-call-");
        RunResult baton = find(results, "release", "peer", "engine");
        RunResult raw = find(results, "release", "peer", "raw-notify");
        if (baton == null || raw == null) {
            report.problem("release call " + store + ": no result");
            return;
        }
        boolean redis = store.equals("redis");
        for (double p : new double[] {50, 99}) {
            double b = percentile(baton, p);
            double r = percentile(raw, p);
            report.add(new Report.Figure(
                    "release call, a waiter of another instance waiting",
                    store,
                    "p" + (int) p + " ms",
                    b,
                    r,
                    redis ? "raw release script that PUBLISHes" : "raw release with pg_notify in its statement",
                    b / r,
                    "JMH sample time, " + baton.getPrimaryResult().getSampleCount()
                            + " releases, holder keeps the key 20 ms first; target: within 1.2 x raw"));
        }
    }

    // --- issue 37: permits, read/write locks, asynchronous acquisition, each against the mutex ---

    /**
     * One JMH run per store (and thread count), the mutex in each: a fork that fails (a store call out of time on a
     * loaded machine) costs only its own row, reported as not measured, and the run goes on.
     */
    void shared() {
        for (String store : stores) {
            for (int threads : new int[] {1, 4}) {
                guarded(
                        "shared, uncontended, " + store + ", " + threads + " threads",
                        () -> sharedUncontended(store, threads));
            }
        }
        for (String store : stores) {
            guarded("shared, hand-off, " + store, () -> sharedHandOff(store));
        }
    }

    void sharedUncontended(String store, int threads) throws RunnerException {
        String scenario = scenario(store, threads);
        Collection<RunResult> results = uncontendedPrimitives("shared", store, threads, PRIMITIVES);
        RunResult mutex = find(results, "baton", "primitive", "mutex");
        for (String primitive : PRIMITIVES.subList(1, PRIMITIVES.size())) {
            RunResult r = besideMutex(
                    mutex,
                    find(results, "baton", "primitive", primitive),
                    "uncontended " + primitive + ", " + scenario);
            if (r == null) {
                continue;
            }
            double b = r.getPrimaryResult().getScore();
            double m = mutex.getPrimaryResult().getScore();
            report.add(
                    SHARED,
                    new Report.Figure(
                            "uncontended cycle: " + primitive(primitive),
                            scenario,
                            "cycles/s",
                            b,
                            m,
                            "Baton mutex cycle (acquire, try once + close)",
                            b / m,
                            "JMH throughput, each thread its own key; ratio primitive/mutex"));
        }
    }

    // --- issue 38: the runtime as fast as its store ---

    /**
     * One JMH run per store and thread count: the store's own cycle through the SPI (asked without waiting, and
     * asked with the bound the API's first ask carries), the engine's and the programmatic API's, in the same run;
     * ratios against the store's cycle without waiting.
     */
    void runtime() {
        for (String store : stores) {
            for (int threads : new int[] {1, 4}) {
                guarded(
                        "runtime, uncontended, " + store + ", " + threads + " threads",
                        () -> runtimeUncontended(store, threads));
            }
        }
    }

    void runtimeUncontended(String store, int threads) throws RunnerException {
        String scenario = scenario(store, threads);
        // baton only: the raw statements' figure beside the engine's is the uncontended measure's
        Collection<RunResult> results =
                uncontendedPrimitives("runtime", store, threads, List.of("store", "store-bounded", "mutex", "locks"));
        RunResult alone = find(results, "baton", "primitive", "store");
        if (alone == null) {
            report.problem("runtime, " + scenario + ": the store's own cycle has no result (see the console)");
            return;
        }
        double a = alone.getPrimaryResult().getScore();
        for (String primitive : List.of("store-bounded", "mutex", "locks")) {
            RunResult row = find(results, "baton", "primitive", primitive);
            if (row == null) {
                report.problem("runtime, " + primitive + ", " + scenario + ": no result (see the console)");
                continue;
            }
            double b = row.getPrimaryResult().getScore();
            report.add(
                    RUNTIME,
                    new Report.Figure(
                            switch (primitive) {
                                case "store-bounded" ->
                                    "uncontended cycle: the store alone, asked with the API's bound";
                                case "mutex" -> "uncontended cycle: the engine (LockEngine.acquire, try once + close)";
                                default -> "uncontended cycle: the API (Locks.acquire(key) + Lock.close())";
                            },
                            scenario,
                            "cycles/s",
                            b,
                            a,
                            "the store alone (SPI acquire + release), same run",
                            b / a,
                            "JMH throughput, each thread its own key; target ≥ 0.95; ratio runtime/store"));
        }
    }

    /** One JMH run of {@link UncontendedBench#baton} with each primitive: a failed fork costs only its own rows. */
    Collection<RunResult> uncontendedPrimitives(String measure, String store, int threads, List<String> primitives)
            throws RunnerException {
        ChainedOptionsBuilder options = jmh(UncontendedBench.class, "baton$")
                .shouldFailOnError(false)
                .threads(threads)
                .param("store", store)
                .param("primitive", primitives.toArray(String[]::new));
        return runJmh(options, measure + "-uncontended-" + store + "-" + threads);
    }

    static String scenario(String store, int threads) {
        return store + ", " + threads + " thread" + (threads > 1 ? "s" : "");
    }

    /** @return {@code row}, or null (reported as not measured) when it or the mutex of its run has no result */
    RunResult besideMutex(RunResult mutex, RunResult row, String what) {
        if (mutex == null || row == null) {
            report.problem(what + ", against the mutex: no result (a fork failed: see the console)");
            return null;
        }
        return row;
    }

    void sharedHandOff(String store) throws RunnerException {
        ChainedOptionsBuilder options = jmh(HandOffBench.class, "handOff")
                .shouldFailOnError(false)
                .param("store", store)
                .param("peer", "engine")
                .param("pair", PAIRS.toArray(String[]::new));
        Collection<RunResult> results = runJmh(options, "shared-handoff-" + store);
        RunResult mutex = find(results, "handOff", "pair", "mutex");
        for (String pair : PAIRS.subList(1, PAIRS.size())) {
            RunResult r = besideMutex(mutex, find(results, "handOff", "pair", pair), "hand-off " + pair + ", " + store);
            if (r == null) {
                continue;
            }
            for (double p : new double[] {50, 99}) {
                double b = percentile(r, p);
                double m = percentile(mutex, p);
                report.add(
                        SHARED,
                        new Report.Figure(
                                "hand-off between two engines: " + pair(pair),
                                store,
                                "p" + (int) p + " ms",
                                b,
                                m,
                                "Baton mutex hand-off (exclusive to exclusive), same peers",
                                b / m,
                                "JMH sample time, " + r.getPrimaryResult().getSampleCount() + " hand-offs ("
                                        + mutex.getPrimaryResult().getSampleCount()
                                        + " of the mutex), holder keeps the key 20 ms first; ratio pair/mutex"));
            }
        }
    }

    static String primitive(String primitive) {
        return switch (primitive) {
            case "permit" -> "permit (" + Bench.PERMITS + " per key)";
            case "read" -> "read lock";
            case "async" -> "acquireAsync(...).join() of an exclusive lock";
            default -> primitive;
        };
    }

    static String pair(String pair) {
        return switch (pair) {
            case "writer-reader" -> "write lock to a reader";
            case "reader-writer" -> "read lock to a writer";
            case "permit" ->
                "permit to a permit waiter (" + Bench.PERMITS + " per key, the other " + (Bench.PERMITS - 1)
                        + " held throughout)";
            case "async" -> "mutex to an acquireAsync waiter (until its future completes)";
            default -> pair;
        };
    }

    static double percentile(RunResult r, double p) {
        return r.getPrimaryResult().getStatistics().getPercentile(p);
    }

    // --- issue 38: the peers (other libraries) beside Baton, each against the raw baselines of the same run ---

    /**
     * Per store that has peers (not memory): the uncontended cycle with 1 and 4 threads, one JMH run each, with the
     * raw statements and Baton's engine in the same run; then the hand-off to another instance, one JMH run with
     * Baton's second engine and the raw hand-off baselines. A failed fork costs only its rows.
     */
    void peers() {
        report.valueColumn(PEERS, "peer (or Baton)");
        List<String> measured =
                stores.stream().filter(s -> !Peers.on(s).isEmpty()).toList();
        if (measured.isEmpty()) {
            report.problem("peers: none on " + String.join(", ", stores) + " (h2, postgresql, mariadb, redis)");
            return;
        }
        for (String store : measured) {
            for (int threads : new int[] {1, 4}) {
                guarded(
                        "peers, uncontended, " + store + ", " + threads + " threads",
                        () -> peersUncontended(store, threads));
            }
        }
        for (String store : measured) {
            guarded("peers, hand-off, " + store, () -> peersHandOff(store));
        }
    }

    /**
     * {@link UncontendedBench#raw} and {@link UncontendedBench#baton} (the mutex) beside {@link PeersBench} in one JMH
     * run; with 1 thread in sample-time mode too, for the cycle's p50.
     */
    void peersUncontended(String store, int threads) throws RunnerException {
        String scenario = scenario(store, threads);
        List<String> peers = Peers.on(store);
        ChainedOptionsBuilder options = jmh(UncontendedBench.class, "(raw|baton)$")
                .include(PeersBench.class.getName() + "\\.cycle$")
                .shouldFailOnError(false)
                .threads(threads)
                .param("store", store)
                .param("primitive", "mutex")
                .param("peer", peers.toArray(String[]::new))
                .mode(Mode.Throughput);
        if (threads == 1) {
            options.mode(Mode.SampleTime);
        }
        Collection<RunResult> results = runJmh(options, "peers-uncontended-" + store + "-" + threads);
        Collection<RunResult> throughput = inMode(results, Mode.Throughput);
        Collection<RunResult> sampled = inMode(results, Mode.SampleTime);
        RunResult raw = find(throughput, "raw");
        if (raw == null) {
            report.problem("peers, uncontended, " + scenario + ": the raw baseline has no result (see the console)");
            return;
        }
        RunResult rawSampled = threads == 1 ? find(sampled, "raw") : null;
        List<String> who = new ArrayList<>(List.of("baton"));
        who.addAll(peers);
        for (String one : who) {
            RunResult r = one.equals("baton") ? find(throughput, "baton") : find(throughput, "cycle", "peer", one);
            if (r == null) {
                report.problem("peers, uncontended, " + label(one) + ", " + scenario + ": no result (see the console)");
                continue;
            }
            double p = r.getPrimaryResult().getScore();
            double b = raw.getPrimaryResult().getScore();
            report.add(
                    PEERS,
                    new Report.Figure(
                            "uncontended acquire+release: " + label(one),
                            scenario,
                            "cycles/s",
                            p,
                            b,
                            rawName(store),
                            p / b,
                            "JMH throughput, each thread its own key, same JMH run; ratio peer/raw"));
            if (threads == 1) {
                RunResult s = one.equals("baton") ? find(sampled, "baton") : find(sampled, "cycle", "peer", one);
                if (s == null || rawSampled == null) {
                    report.problem("peers, cycle p50, " + label(one) + ", " + scenario + ": no result");
                    continue;
                }
                double m = millis(s, 50);
                double rm = millis(rawSampled, 50);
                report.add(
                        PEERS,
                        new Report.Figure(
                                "uncontended cycle p50: " + label(one),
                                scenario,
                                "p50 ms",
                                m,
                                rm,
                                rawName(store),
                                m / rm,
                                "JMH sample time, " + s.getPrimaryResult().getSampleCount()
                                        + " cycles, same JMH run; ratio peer/raw (lower is faster)"));
            }
        }
    }

    /**
     * {@link HandOffBench} with the peers that can wait, Baton's second engine ({@code peer=engine}) and the raw
     * hand-off baselines ({@code raw-retry}; {@code raw-notify} on PostgreSQL and Redis) in one JMH run.
     */
    void peersHandOff(String store) throws RunnerException {
        List<String> waiting = Peers.on(store).stream().filter(Peers::waits).toList();
        List<String> peers = new ArrayList<>(List.of("engine"));
        peers.addAll(waiting);
        peers.add("raw-retry");
        boolean notifies = store.equals("postgresql") || store.equals("redis");
        if (notifies) {
            peers.add("raw-notify");
        }
        ChainedOptionsBuilder options = jmh(HandOffBench.class, "handOff")
                .shouldFailOnError(false)
                .param("store", store)
                .param("peer", peers.toArray(String[]::new))
                .param("pair", "mutex");
        Collection<RunResult> results = runJmh(options, "peers-handoff-" + store);
        RunResult retry = find(results, "handOff", "peer", "raw-retry");
        RunResult notify = notifies ? find(results, "handOff", "peer", "raw-notify") : null;
        boolean redis = store.equals("redis");
        if (retry == null && notify == null) {
            report.problem("peers, hand-off, " + store + ": no raw baseline has a result (see the console)");
        }
        for (String peer : peers) {
            if (peer.startsWith("raw-")) {
                continue;
            }
            String who = peer.equals("engine")
                    ? "Baton (a second engine waits: woken by the store's notification on PostgreSQL and Redis,"
                            + " polling elsewhere)"
                    : Peers.label(peer);
            RunResult r = find(results, "handOff", "peer", peer);
            if (r == null) {
                report.problem("peers, hand-off, " + who + ", " + store + ": no result (see the console)");
                continue;
            }
            String how = "JMH sample time, " + r.getPrimaryResult().getSampleCount()
                    + " hand-offs, holder keeps the key 20 ms first, same JMH run; ratio peer/raw (lower is faster)";
            for (double p : new double[] {50, 99}) {
                String name = "p" + (int) p + " ms";
                double v = percentile(r, p);
                if (retry != null) {
                    double b = percentile(retry, p);
                    report.add(
                            PEERS,
                            new Report.Figure(
                                    "hand-off to another instance: " + who,
                                    store,
                                    name,
                                    v,
                                    b,
                                    redis ? "raw busy retry of SET NX PX" : "raw busy retry of the upsert",
                                    v / b,
                                    how));
                }
                if (notify != null) {
                    double b = percentile(notify, p);
                    report.add(
                            PEERS,
                            new Report.Figure(
                                    "hand-off to another instance: " + who,
                                    store,
                                    name,
                                    v,
                                    b,
                                    redis ? "raw pub/sub (release script PUBLISHes)" : "raw LISTEN/NOTIFY",
                                    v / b,
                                    how));
                }
            }
        }
        for (String peer : Peers.on(store)) {
            if (!Peers.waits(peer)) {
                report.add(
                        PEERS,
                        new Report.Figure(
                                "hand-off to another instance: " + label(peer),
                                store,
                                "p50 / p99 ms",
                                Double.NaN,
                                Double.NaN,
                                "—",
                                Double.NaN,
                                "not measured: it cannot wait (lock() only tries and answers empty while the key is"
                                        + " held; a caller would have to poll on its own)"));
            }
        }
    }

    /** A peer's name in the report, or Baton's. */
    static String label(String peer) {
        return peer.equals("baton") ? "Baton (LockEngine.acquire, try once + close)" : Peers.label(peer);
    }

    static Collection<RunResult> inMode(Collection<RunResult> results, Mode mode) {
        return results.stream().filter(r -> r.getParams().getMode() == mode).toList();
    }

    /** A percentile of a sample-time result in milliseconds, whatever its output time unit. */
    static double millis(RunResult r, double p) {
        return percentile(r, p) * r.getParams().getTimeUnit().toNanos(1) / 1e6;
    }

    // --- 4. @Synchronized ---

    void synchronizedOverhead() throws RunnerException {
        Collection<RunResult> results = runJmh(jmh(SynchronizedBench.class), "synchronized");
        double plain = Double.NaN;
        double noop = Double.NaN;
        double locked = Double.NaN;
        for (RunResult r : results) {
            double score = r.getPrimaryResult().getScore();
            switch (method(r)) {
                case "plain" -> plain = score;
                case "intercepted" -> noop = score;
                case "locked" -> locked = score;
                default -> {}
            }
        }
        report.add(new Report.Figure(
                "@Synchronized overhead over a plain call",
                "memory, 1 thread, Weld SE",
                "ns/call",
                locked - plain,
                noop - plain,
                "Weld no-op interceptor",
                (locked - plain) / (noop - plain),
                "JMH average time; plain call " + Report.num(plain) + " ns; target <= 1,000 ns"));
    }

    // --- 5, 6, 7: probes, each in a JVM of its own ---

    void heap() throws Exception {
        for (String store : stores) {
            probe("heap", store, "10000", smoke ? "3000" : "30000");
        }
    }

    void renewal() throws Exception {
        if (!stores.contains("postgresql") && !stores.contains("redis")) {
            report.problem("renewal round trips: PostgreSQL and Redis only, neither among --stores");
            return;
        }
        if (stores.contains("postgresql")) {
            probe("renewal", "postgresql", "1000", smoke ? "3000" : "6000", smoke ? "3" : "10");
        }
        if (stores.contains("redis")) {
            probe("renewal", "redis", "1000", smoke ? "3000" : "6000", smoke ? "3" : "10");
            renewAllRedis();
        }
    }

    /** One batch renewal of 1,000 leases at the Redis store against the raw one-script batch, same run. */
    void renewAllRedis() throws RunnerException {
        Collection<RunResult> results = runJmh(jmh(RenewAllBench.class), "renew-all-redis");
        RunResult baton = find(results, "baton");
        RunResult raw = find(results, "raw");
        if (baton == null || raw == null) {
            report.problem("batch renewal redis: no result");
            return;
        }
        double b = baton.getPrimaryResult().getScore();
        double r = raw.getPrimaryResult().getScore();
        report.add(new Report.Figure(
                "batch renewal of 1,000 held leases",
                "redis, store renewAll, 1 thread",
                "batches/s",
                b,
                r,
                "raw one script: GET == owner, PEXPIRE per key",
                b / r,
                "JMH throughput; every lease renewed in each batch; ratio Baton/raw"));
    }

    void fairness() throws Exception {
        for (String store : stores) {
            probe("fairness", store, "4", "5", smoke ? "10" : "120");
        }
    }

    void probe(String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of(HandOffPeer.Process.java(), "-Xmx1g", "-cp", System.getProperty("java.class.path")));
        command.addAll(Bench.forkProperties(stores));
        command.add(Probes.class.getName());
        command.addAll(List.of(args));
        String log = "probe-" + String.join("-", args) + ".log";
        System.out.println(
                "  probe " + String.join(" ", args) + " (log: " + Bench.dir().resolve(log) + ")");
        Process process = new ProcessBuilder(command)
                .redirectError(Bench.dir().resolve(log).toFile())
                .start();
        try (java.io.BufferedReader in = new java.io.BufferedReader(
                new java.io.InputStreamReader(process.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.split("\t", -1);
                if (f.length == 9 && f[0].equals("FIGURE")) {
                    report.add(new Report.Figure(
                            f[1],
                            f[2],
                            f[3],
                            Double.parseDouble(f[4]),
                            Double.parseDouble(f[5]),
                            f[6],
                            Double.parseDouble(f[7]),
                            f[8]));
                }
            }
        }
        int exit = process.waitFor();
        if (exit != 0) {
            report.problem("probe " + String.join(" ", args) + " exited with " + exit + " (see " + log + ")");
        }
    }
}
