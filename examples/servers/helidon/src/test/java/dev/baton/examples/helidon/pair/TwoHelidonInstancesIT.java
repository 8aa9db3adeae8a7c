package dev.baton.examples.helidon.pair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.runtime.launch.FreePorts;
import dev.baton.tck.runtime.launch.Jdks;
import dev.baton.tck.runtime.launch.ServerProcess;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two Helidon MP 4 processes of one application on one PostgreSQL database, sharing nothing but the JPA store's
 * table: {@code @Synchronized} excludes across the two JVMs, and each {@code @Exclusive} job of Helidon's own
 * scheduler ({@code @FixedRate} and cron {@code @Scheduled}) runs once per planned time across both, under
 * increasing fencing tokens; SIGTERM stops both.
 *
 * <p>The application is {@code src/test/helidon-app}: Helidon's classes are Java 21, so it is compiled here by
 * the javac of the JDK 21+ that runs Helidon ({@code -Dhelidon.javaHome}, else one beside the build's JDK), and
 * each instance's class path is those classes, Baton's jars and {@code target/helidon.classpath}. The database is
 * embedded, or a fresh one on the server of {@code BATON_TEST_POSTGRES_URL}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoHelidonInstancesIT {

    private static final String MAIN = "io.helidon.microprofile.cdi.Main";
    private static final long PERIOD_MILLIS = 2_000;
    /** Planned times each job is checked on, after both instances are up. */
    private static final int PLANNED_TIMES = 6;
    /** Planned times no instance ran that are tolerated per job (a firing missed on this loaded 2-core machine). */
    private static final int MISSED_AT_MOST = 1;

    private static final Pattern RUN = Pattern.compile(
            "^(\\d+) (\\S+) (\\S+) planned=(\\d+) claimed=(true|false) fired=(\\d+) token=(\\d+) key=(\\S+).*$");
    private static final Pattern TOKEN = Pattern.compile("^(\\S+) token=(\\d+)$");

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private record Instance(String name, ServerProcess process, URI base) {
        @Override
        public String toString() {
            return "instance " + name + " (" + process + ")";
        }
    }

    private record Run(
            long id, String job, String instance, long planned, boolean claimed, long fired, long token, String key) {}

    private PairDatabase database;
    private Instance a;
    private Instance b;
    private long bothUpMillis;

    @BeforeAll
    void startPostgresAndTwoHelidons() throws Exception {
        Path work = Path.of("target", "helidon-pair").toAbsolutePath();
        deleteRecursively(work);
        Files.createDirectories(work);
        database = PairDatabase.start(work);
        database.execute("CREATE TABLE pair_run (id BIGSERIAL PRIMARY KEY, job VARCHAR(40) NOT NULL,"
                + " instance VARCHAR(10) NOT NULL, planned_ms BIGINT NOT NULL, claimed BOOLEAN NOT NULL,"
                + " fired_ms BIGINT NOT NULL, lock_key VARCHAR(200) NOT NULL, token BIGINT NOT NULL,"
                + " detail VARCHAR(200), written_at TIMESTAMP DEFAULT clock_timestamp())");

        Path jdk = Jdks.atLeast(21, System.getProperty("helidon.javaHome"), "-Dhelidon.javaHome");
        List<String> libraries = new ArrayList<>();
        libraries.addAll(jars(required("baton.tck.libraries")));
        libraries.addAll(jars(required("baton.tck.jpaStoreLibraries")));
        libraries.add(Files.readString(Path.of(required("helidon.classpathFile")), StandardCharsets.UTF_8)
                .trim());
        Path classes = compile(jdk, Path.of(required("baton.helidon.pair.sources")), work, libraries);

        List<String> classpath = new ArrayList<>();
        classpath.add(classes.toString());
        classpath.addAll(libraries);
        // one after the other: the second finds the lock table the first created
        a = start("a", Jdks.launcher(jdk), String.join(File.pathSeparator, classpath), work);
        b = start("b", Jdks.launcher(jdk), String.join(File.pathSeparator, classpath), work);
        bothUpMillis = System.currentTimeMillis();
    }

    @AfterAll
    void stopAll() throws Exception {
        for (Instance instance : new Instance[] {b, a}) {
            if (instance != null) {
                instance.process().stop(Duration.ofSeconds(30));
            }
        }
        if (database != null) {
            database.close();
        }
    }

    /** Held in A, B's non-waiting try answers 409; once A let go, B gets it, with a greater token. */
    @Test
    @Order(1)
    void aSynchronizedKeyIsExcludedAcrossTheTwoJvms() throws Exception {
        CompletableFuture<HttpResponse<String>> holding =
                CompletableFuture.supplyAsync(() -> send(a, "POST", "work/pair?millis=3000"));
        await(
                "work:pair held, as B sees it",
                () -> send(b, "GET", "work/pair/holder").body(),
                body -> body.startsWith("held") || holding.isDone());
        assertThat(holding).as("A still holds work:pair").isNotDone();
        HttpResponse<String> refused = send(b, "POST", "work/pair");
        assertThat(refused.statusCode())
                .as("B while A holds it: %s", refused.body())
                .isEqualTo(409);
        assertThat(refused.body()).contains("work:pair");

        HttpResponse<String> held = holding.get(1, TimeUnit.MINUTES);
        assertThat(held.statusCode()).as(held.body()).isEqualTo(200);
        HttpResponse<String> after = send(b, "POST", "work/pair");
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
        long first = token(held.body(), "a");
        long second = token(after.body(), "b");
        assertThat(second).as("B's token after A's (%d)", first).isGreaterThan(first);
        System.out.printf("work:pair: A token %d, B refused (409) while A held it, then B token %d%n", first, second);
    }

    @Test
    @Order(2)
    void theFixedRateJobRunsOncePerPlannedTimeAcrossBothInstances() throws Exception {
        checkJob("fixed-rate", "schedule:dev.baton.examples.helidon.pair.app.Jobs.fixedRate", 0);
    }

    @Test
    @Order(3)
    void theCronJobRunsOncePerPlannedTimeAcrossBothInstances() throws Exception {
        checkJob("cron", "schedule:dev.baton.examples.helidon.pair.app.Jobs.cron", 0);
    }

    /** A fixed rate whose period Helidon's configuration sets (2 s instead of the annotation's minute). */
    @Test
    @Order(4)
    void aConfiguredFixedRateRunsOncePerPlannedTimeAcrossBothInstances() throws Exception {
        checkJob("configured-rate", "schedule:dev.baton.examples.helidon.pair.app.Jobs.configuredRate", 0);
    }

    /** A cron that is a configuration placeholder ({@code ${pair.cron}}: every odd second). */
    @Test
    @Order(5)
    void aConfiguredCronRunsOncePerPlannedTimeAcrossBothInstances() throws Exception {
        checkJob("configured-cron", "schedule:dev.baton.examples.helidon.pair.app.Jobs.configuredCron", 1_000);
    }

    /** SIGTERM: each JVM shuts CDI down and exits within the grace period. */
    @Test
    @Order(Integer.MAX_VALUE)
    void sigtermStopsBothInstances() {
        for (Instance instance : List.of(b, a)) {
            boolean graceful = instance.process().stop(Duration.ofSeconds(30));
            assertThat(graceful)
                    .as(
                            "%s stopped on SIGTERM within 30 s; end of its log:%n%s",
                            instance, instance.process().tail(30))
                    .isTrue();
            assertThat(instance.process().isAlive()).isFalse();
            System.out.printf(
                    "%s: exit code %d after SIGTERM%n",
                    instance, instance.process().exitValue());
        }
    }

    /**
     * After {@link #PLANNED_TIMES} planned times run since both instances are up: each ran at most once across both,
     * under the schedule's lock and the claim of its planned time; the tokens increase in the order of the runs
     * (the journal's ids: each row is written during its run, under the run lock); and no planned time is missing
     * but {@link #MISSED_AT_MOST}, never two in a row; the planned times are {@code offsetMillis} into the periods
     * of 2 s (the even seconds, or the odd ones); and the instances skipped firings the other one ran
     * ({@code ScheduleSkipped}), none for a failure.
     */
    private void checkJob(String job, String key, long offsetMillis) throws Exception {
        long from = (Math.floorDiv(bothUpMillis, PERIOD_MILLIS) + 1) * PERIOD_MILLIS;
        List<Run> all = await(
                PLANNED_TIMES + " planned times of " + job + " since both instances are up",
                () -> runs(job),
                runs -> runs.stream()
                                .filter(run -> run.planned() >= from)
                                .map(Run::planned)
                                .distinct()
                                .count()
                        >= PLANNED_TIMES);
        String journal = send(a, "GET", "journal").body();
        List<Run> window = all.stream().filter(run -> run.planned() >= from).toList();
        Map<Long, List<Run>> byPlanned =
                window.stream().collect(Collectors.groupingBy(Run::planned, TreeMap::new, Collectors.toList()));

        assertThat(byPlanned.keySet())
                .as("planned times of %s since both are up (%d); journal:%n%s", job, from, journal)
                .hasSizeGreaterThanOrEqualTo(PLANNED_TIMES);
        assertThat(byPlanned.keySet())
                .as("planned times of %s, %d ms into the periods of 2 s; journal:%n%s", job, offsetMillis, journal)
                .allMatch(planned -> Math.floorMod(planned, PERIOD_MILLIS) == offsetMillis);
        assertThat(byPlanned.values())
                .as("runs per planned time of %s across both instances; journal:%n%s", job, journal)
                .allMatch(runs -> runs.size() == 1);
        assertThat(all)
                .as("runs of %s under its lock %s and the claim of their planned time; journal:%n%s", job, key, journal)
                .allMatch(run -> run.claimed() && run.key().equals(key));
        for (int i = 1; i < all.size(); i++) {
            assertThat(all.get(i).token())
                    .as("token of run %s after %s; journal:%n%s", all.get(i), all.get(i - 1), journal)
                    .isGreaterThan(all.get(i - 1).token());
        }
        List<Long> planned = new ArrayList<>(byPlanned.keySet());
        long missed = (planned.get(planned.size() - 1) - planned.get(0)) / PERIOD_MILLIS + 1 - planned.size();
        assertThat(missed)
                .as("planned times of %s no instance ran, between %s; journal:%n%s", job, planned, journal)
                .isLessThanOrEqualTo(MISSED_AT_MOST);
        for (int i = 1; i < planned.size(); i++) {
            assertThat(planned.get(i) - planned.get(i - 1))
                    .as("gap between planned times of %s; journal:%n%s", job, journal)
                    .isLessThanOrEqualTo(2 * PERIOD_MILLIS);
        }
        // the instances' firings of planned times the other one ran were skipped, and none for a failure
        Map<String, Long> skips = new TreeMap<>();
        for (Instance instance : List.of(a, b)) {
            for (String line : send(instance, "GET", "skips").body().split("\n")) {
                if (line.startsWith(key + " ")) {
                    String[] reason = line.substring(key.length() + 1).split("=");
                    skips.merge(reason[0], Long.parseLong(reason[1].trim()), Long::sum);
                }
            }
        }
        assertThat(skips.getOrDefault("PLANNED_TIME_CLAIMED", 0L) + skips.getOrDefault("HELD_ELSEWHERE", 0L))
                .as("firings of %s skipped because the other instance ran them (%s)", job, skips)
                .isPositive();
        assertThat(skips.keySet())
                .as("reasons of skipped firings of %s", job)
                .allMatch(reason -> reason.equals("PLANNED_TIME_CLAIMED") || reason.equals("HELD_ELSEWHERE"));
        Map<String, Long> byInstance =
                window.stream().collect(Collectors.groupingBy(Run::instance, TreeMap::new, Collectors.counting()));
        System.out.printf(
                "%s: %d planned times since both are up, one run each (by instance %s), %d missed; skipped firings %s;"
                        + " tokens %d..%d; fired - planned (ms): %s%n",
                job,
                planned.size(),
                byInstance,
                missed,
                skips,
                all.get(0).token(),
                all.get(all.size() - 1).token(),
                window.stream().map(run -> run.fired() - run.planned()).toList());
    }

    private List<Run> runs(String job) {
        HttpResponse<String> response = send(b, "GET", "journal");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<Run> runs = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            Matcher m = RUN.matcher(line);
            if (m.matches() && m.group(2).equals(job)) {
                runs.add(new Run(
                        Long.parseLong(m.group(1)),
                        m.group(2),
                        m.group(3),
                        Long.parseLong(m.group(4)),
                        Boolean.parseBoolean(m.group(5)),
                        Long.parseLong(m.group(6)),
                        Long.parseLong(m.group(7)),
                        m.group(8)));
            }
        }
        runs.sort(Comparator.comparingLong(Run::id));
        return runs;
    }

    private static long token(String body, String instance) {
        Matcher m = TOKEN.matcher(body.trim());
        assertThat(m.matches()).as("<instance> token=<n>: %s", body).isTrue();
        assertThat(m.group(1)).isEqualTo(instance);
        return Long.parseLong(m.group(2));
    }

    /** Compiles the application with the JDK 21+ javac (Helidon's classes are Java 21) and adds its resources. */
    private Path compile(Path jdk, Path sources, Path work, List<String> classpath) throws Exception {
        Path classes = work.resolve("app-classes");
        Files.createDirectories(classes);
        List<String> command = new ArrayList<>(List.of(
                jdk.resolve("bin").resolve("javac").toString(),
                "--release",
                "21",
                "-parameters",
                "-proc:none",
                "-nowarn",
                "-d",
                classes.toString(),
                "-cp",
                String.join(File.pathSeparator, classpath)));
        try (Stream<Path> files = Files.walk(sources.resolve("java"))) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> command.add(p.toString()));
        }
        Path log = work.resolve("javac.log");
        Process javac = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(javac.waitFor(2, TimeUnit.MINUTES))
                .as("javac within 2 minutes")
                .isTrue();
        assertThat(javac.exitValue())
                .as("javac of %s:%n%s", sources, Files.readString(log))
                .isZero();
        Path resources = sources.resolve("resources");
        try (Stream<Path> files = Files.walk(resources)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = classes.resolve(resources.relativize(file).toString());
                Files.createDirectories(target.getParent());
                String text = Files.readString(file, StandardCharsets.UTF_8)
                        .replace("@pair.jdbc.url@", database.jdbcUrl().replace("&", "&amp;"));
                Files.writeString(target, text, StandardCharsets.UTF_8);
            }
        }
        return classes;
    }

    private Instance start(String name, Path java, String classpath, Path work) throws Exception {
        int port = FreePorts.pick();
        List<String> command = List.of(
                java.toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-Dserver.host=127.0.0.1",
                "-Dserver.port=" + port,
                "-Dpair.instance=" + name,
                "-Dpair.jdbc.url=" + database.jdbcUrl(),
                "-cp",
                classpath,
                MAIN);
        ServerProcess process = ServerProcess.start(command, work, work.resolve("helidon-" + name + ".log"));
        Instance instance = new Instance(name, process, URI.create("http://127.0.0.1:" + port + "/api/"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            assertThat(process.isAlive())
                    .as("%s exited while starting; end of its log:%n%s", instance, process.tail(60))
                    .isTrue();
            assertThat(System.nanoTime() - deadline)
                    .as("%s answers within 120 s; end of its log:%n%s", instance, process.tail(60))
                    .isNegative();
            try {
                HttpResponse<String> journal = CLIENT.send(
                        HttpRequest.newBuilder(instance.base().resolve("journal"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(journal.statusCode())
                        .as("GET %s: %s; end of its log:%n%s", instance.base(), journal.body(), process.tail(60))
                        .isEqualTo(200);
                return instance;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
    }

    private static HttpResponse<String> send(Instance instance, String method, String path) {
        try {
            return CLIENT.send(
                    HttpRequest.newBuilder(instance.base().resolve(path))
                            .timeout(Duration.ofSeconds(30))
                            .method(method, HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(instance + ": " + method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private interface Read<T> {
        T read() throws Exception;
    }

    /** Reads until {@code done} holds or 45 s passed; the last value read. */
    private static <T> T await(String what, Read<T> read, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        T value = read.read();
        while (!done.test(value) && System.nanoTime() - deadline < 0) {
            Thread.sleep(250);
            value = read.read();
        }
        return value;
    }

    private static List<String> jars(String directory) throws IOException {
        try (Stream<Path> files = Files.list(Path.of(directory))) {
            return files.filter(p -> p.toString().endsWith(".jar"))
                    .sorted()
                    .map(Path::toString)
                    .toList();
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (run through Maven)");
        }
        return value;
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
