package dev.baton.examples.orders.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two instances, one lock: the example WAR runs in two server processes of one kind (no cluster between
 * them) on one PostgreSQL database, and {@code @Synchronized} excludes across the two JVMs, because
 * the only thing they share is the JPA store's table. The database is embedded, or a fresh one on the
 * server named by {@code BATON_TEST_POSTGRES_URL}. The example's {@code @Exclusive} timer runs in one of
 * them per planned time, counted in that database. Last, the leader of the example's {@code @Leader} relay
 * is killed and the other instance takes over within one ttl. A subclass starts the servers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class TwoInstancesScenario {

    private static final Pattern PAYMENTS = Pattern.compile("\"payments\":(\\d+)");
    private static final Pattern SKIPPED = Pattern.compile("skipped here=(\\d+)");
    private static final Pattern TOKEN = Pattern.compile("-(\\d+)$");
    private static final Pattern RELAY =
            Pattern.compile("^\\{\"instance\":\"([^\"]+)\",\"leads\":(true|false),.*\"ttl\":\"([^\"]+)\"");
    private static final Pattern JOURNAL_ROW =
            Pattern.compile("\\{\"instance\":\"([^\"]+)\",\"token\":(\\d+),\"writtenAt\":\"([^\"]+)\"}");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    /**
     * How much later than one ttl after the leader's crash the other instance may take over: its waiting
     * acquisition polls (at most every 500 ms), and this 2-core machine may be busy.
     */
    private static final Duration TAKEOVER_MARGIN = Duration.ofSeconds(5);

    /**
     * Server configuration both kinds get, as MicroProfile Config system properties: 24 payments of 100 ms
     * queue on one order across both instances, so they wait longer than 5 s. The exclusive timer (every 2 s)
     * needs nothing: each planned time is claimed in the store for its retention (1 minute here), so a firing
     * of it however late on the other instance skips — on a loaded 2-core machine timers do fire late.
     */
    static final Map<String, String> CONFIGURATION =
            Map.of("dev.baton.examples.orders.PaymentService/pay/Synchronized/timeout", "60s");

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** A running instance of the example: where it answers, how to stop it, and how to kill it (SIGKILL). */
    record Instance(String name, URI baseUri, AutoCloseable server, Runnable kill) {
        @Override
        public String toString() {
            return name;
        }
    }

    private TwoInstancesDatabase database;
    private Instance first;
    private Instance second;
    private final List<AutoCloseable> backends = new ArrayList<>();

    /**
     * Starts one server with the WAR and {@link #CONFIGURATION}.
     *
     * @param name {@code instance-a} or {@code instance-b}
     * @param war the example WAR pointed at the PostgreSQL database
     * @param directory where the server may keep its files and logs
     * @return the running instance
     */
    abstract Instance start(String name, Path war, Path directory) throws Exception;

    /**
     * What the two instances run on besides the example's PostgreSQL, before they start: nothing here; a
     * subclass that keeps its locks elsewhere starts that backend, adds its store to the WAR, and returns the
     * WAR and the configuration both servers get (the backend is stopped with {@link #stopAfterTheInstances}).
     *
     * @param war the example WAR pointed at PostgreSQL
     * @param directory where files may go
     * @return the WAR to deploy
     */
    Path prepare(Path war, Path directory) throws Exception {
        return war;
    }

    /** @return the configuration both servers get: {@link #CONFIGURATION} unless a subclass adds to it */
    Map<String, String> configuration() {
        return CONFIGURATION;
    }

    /** @return whether the data sources of {@code web.xml} name the database user in a {@code <user>} element */
    boolean userAsElement() {
        return false;
    }

    /** @return whether the locks live in the WAR's own database (the JPA store's table), as the example sets it */
    boolean locksInTheWarsDatabase() {
        return true;
    }

    /** Closes {@code backend} after both instances have stopped (their locks are given back first). */
    void stopAfterTheInstances(AutoCloseable backend) {
        backends.add(backend);
    }

    @BeforeAll
    void startPostgresAndTwoInstances() throws Exception {
        Path target = Path.of("target").toAbsolutePath();
        Path directory = target.resolve("two-instances/" + getClass().getSimpleName());
        database = TwoInstancesDatabase.start(directory);
        String url = database.jdbcUrl();
        Path war = prepare(
                PostgresOrdersWar.write(
                        Path.of(required("baton.demo.war")),
                        Path.of(required("baton.demo.postgresDriver")),
                        url,
                        directory.resolve("orders.war"),
                        userAsElement()),
                directory);
        // one after the other: the second finds the tables the first created
        first = start("instance-a", war, directory);
        second = start("instance-b", war, directory);
    }

    @AfterAll
    void stop() {
        List<AutoCloseable> closing = new ArrayList<>();
        closing.add(second == null ? null : second.server());
        closing.add(first == null ? null : first.server());
        closing.addAll(backends);
        closing.add(database);
        for (AutoCloseable closeable : closing) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                // keep stopping the others
            }
        }
    }

    @Test
    void concurrentPaymentsThroughBothInstancesLoseNoUpdate() throws Exception {
        int perInstance = 12;
        // the order exists first, so that the race below is about updates, not about creating it
        assertThat(post(first, "orders/shared/payments?amount=100").statusCode())
                .isEqualTo(200);
        ExecutorService pool = Executors.newFixedThreadPool(2 * perInstance);
        try {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < perInstance; i++) {
                for (Instance instance : List.of(first, second)) {
                    // each payment reads the order, waits 100 ms, writes it back: unlocked, they overwrite each other
                    answers.add(pool.submit(
                            () -> post(instance, "orders/shared/payments?amount=100&processingMillis=100")));
                }
            }
            List<Long> counts = new ArrayList<>();
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get(3, TimeUnit.MINUTES);
                assertThat(response.statusCode())
                        .as("%s %s", response.uri(), response.body())
                        .isEqualTo(200);
                counts.add(number(PAYMENTS, response.body()));
            }
            // every payment saw all the ones before it, whichever instance served them
            assertThat(counts)
                    .doesNotHaveDuplicates()
                    .hasSize(2 * perInstance)
                    .allMatch(n -> n >= 2 && n <= 1 + 2 * perInstance);
        } finally {
            pool.shutdownNow();
        }

        for (Instance instance : List.of(first, second)) {
            String order = get(instance, "orders/shared").body();
            assertThat(order)
                    .contains("\"payments\":" + (1 + 2 * perInstance))
                    .contains("\"paidCents\":" + (1 + 2 * perInstance) * 100);
        }
    }

    @Test
    void anOrderBusyOnOneInstanceIs409OnTheOther() throws Exception {
        assertThat(post(first, "orders/busy/payments?amount=100").statusCode()).isEqualTo(200);
        // A slow shipment on the first instance holds order:busy; once the shared lock table shows it held,
        // a shipment on the second instance must be refused at once (await = false).
        for (int round = 0; round < 5; round++) {
            CompletableFuture<HttpResponse<String>> packing = CompletableFuture.supplyAsync(
                    () -> unchecked(() -> post(first, "orders/busy/shipment?packingMillis=4000")));
            while (!packing.isDone()
                    && !get(second, "orders/busy/holder").body().contains("\"held\":true")) {
                Thread.sleep(20);
            }
            HttpResponse<String> other = packing.isDone() ? null : post(second, "orders/busy/shipment");
            HttpResponse<String> packed = packing.get(1, TimeUnit.MINUTES);
            assertThat(packed.statusCode()).as(packed.body()).isEqualTo(200);
            if (other != null && other.statusCode() == 409) {
                assertThat(other.body()).contains("order:busy");
                return;
            }
        }
        throw new AssertionError("no 409 on the second instance while the first one packed, in 5 rounds");
    }

    @Test
    void fencingTokensKeepIncreasingAcrossInstances() throws Exception {
        assertThat(post(first, "orders/fenced/payments?amount=100").statusCode())
                .isEqualTo(200);
        long previous = 0;
        for (int round = 0; round < 10; round++) {
            Instance instance = round % 2 == 0 ? first : second;
            HttpResponse<String> invoice = post(instance, "orders/fenced/invoice");
            assertThat(invoice.statusCode()).as(invoice.body()).isEqualTo(200);
            long token = number(TOKEN, invoice.body());
            assertThat(token).as("invoice %d from %s", round, instance).isGreaterThan(previous);
            previous = token;
        }
        // both instances see the key free, and the order carries the last token (a fenced write)
        for (Instance instance : List.of(first, second)) {
            assertThat(get(instance, "orders/fenced/holder").body()).contains("\"held\":false");
            if (locksInTheWarsDatabase()) {
                // and read the same row of the JPA store's table, at that token
                assertThat(get(instance, "orders/fenced/lock").body())
                        .contains("\"token\":" + previous)
                        .contains("\"held\":false");
            }
            assertThat(get(instance, "orders/fenced").body()).contains("\"invoiceToken\":" + previous);
        }
    }

    /**
     * The example's {@code @Exclusive} EJB timer (every 2 s, {@code UnpaidOrders}) fires in both instances
     * at every planned time; each run writes a row with its planned time (from the timer) to
     * {@code example_sweep_run}, deliberately not unique. Counted by the database for at least 15 planned
     * times after both instances are up: exactly one run each.
     */
    @Test
    void theExclusiveTimerRunsOncePerPlannedTimeAcrossInstances() throws Exception {
        int plannedTimes = 15;
        long before =
                sweeps(first).keySet().stream().mapToLong(Long::longValue).max().orElse(0);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        Map<Long, String> window;
        do {
            Thread.sleep(500);
            window = new TreeMap<>(sweeps(second));
            window.keySet().removeIf(planned -> planned <= before);
        } while (window.size() < plannedTimes && System.nanoTime() - deadline < 0);
        String both = get(first, "sweeps?limit=1000").body()
                + get(second, "sweeps?limit=1").body();

        assertThat(window)
                .as("planned times run since both instances are up:%n%s", both)
                .hasSizeGreaterThanOrEqualTo(plannedTimes);
        assertThat(window.values())
                .as("runs per planned time, counted by the database:%n%s", both)
                .allMatch(line -> line.contains(" runs=1 "));
        long skipped = skippedHere(first) + skippedHere(second);
        assertThat(skipped)
                .as("firings skipped because the other instance ran them:%n%s", both)
                .isPositive();
        System.out.printf(
                "exclusive timer, two instances: %d planned times, one run each; %d firings skipped%n%s%n",
                window.size(), skipped, both);
    }

    /**
     * The example's outbox relay ({@code OrdersRelay}: {@code @Leader("orders-relay")} on an EJB timer every
     * second) runs in one instance, which journals each run with its term's token in the database, fenced. The
     * leader is killed (SIGKILL: no shutdown, its lock not released); the other instance must lead within one
     * ttl of the kill (and a margin), and the journal must show one leader after the other: tokens that never
     * decrease, the survivor's all above the killed leader's, no interleaving by the database's time.
     * Runs last: it leaves one instance.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void whenTheLeaderIsKilledTheOtherTakesOverWithinOneTtl() throws Exception {
        // the leader: the instance that says it leads and has journaled a run
        Instance leader = null;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (leader == null) {
            for (Instance instance : List.of(first, second)) {
                Relay relay = relay(instance);
                if (relay.leads() && relay.journal().stream().anyMatch(row -> row.by(relay.instance()))) {
                    leader = instance;
                }
            }
            assertThat(System.nanoTime() - deadline)
                    .as("an instance that leads orders-relay and journals, within 2 minutes")
                    .isNegative();
            Thread.sleep(200);
        }
        Instance survivor = leader == first ? second : first;
        Relay leaderView = relay(leader);
        Relay standingBy = relay(survivor);
        assertThat(standingBy.leads())
                .as("%s stands by while %s leads", survivor, leader)
                .isFalse();
        long term = leaderView.journal().stream()
                .filter(row -> row.by(leaderView.instance()))
                .mapToLong(JournalRow::token)
                .max()
                .orElseThrow();

        // while the leader journals three more runs, the stand-by's timer fires too, and its calls skip
        long rows = leaderView.rowsBy(leaderView.instance());
        deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (relay(leader).rowsBy(leaderView.instance()) < rows + 3) {
            assertThat(System.nanoTime() - deadline)
                    .as("3 more runs of the relay on %s", leader)
                    .isNegative();
            Thread.sleep(200);
        }
        Relay stillStandingBy = relay(survivor);
        assertThat(stillStandingBy.leads())
                .as("%s stands by while %s leads", survivor, leader)
                .isFalse();
        assertThat(stillStandingBy.journal())
                .as("rows of %s (%s) while %s leads", survivor, stillStandingBy.instance(), leader)
                .noneMatch(row -> row.by(stillStandingBy.instance()) && row.token() >= term);

        Duration ttl = leaderView.ttl();
        long killedAt = System.nanoTime();
        leader.kill().run();
        Duration leadsAfter = null;
        Duration journalsAfter = null;
        deadline = killedAt + ttl.plus(Duration.ofMinutes(2)).toNanos();
        while (journalsAfter == null && System.nanoTime() - deadline < 0) {
            Relay relay = relay(survivor);
            Duration since = Duration.ofNanos(System.nanoTime() - killedAt);
            if (relay.leads() && leadsAfter == null) {
                leadsAfter = since;
            }
            if (relay.journal().stream().anyMatch(row -> row.by(relay.instance()) && row.token() > term)) {
                journalsAfter = since;
            }
            Thread.sleep(100);
        }
        assertThat(journalsAfter)
                .as("%s journaled as the leader after %s was killed", survivor, leader)
                .isNotNull();
        Duration takeover = Objects.requireNonNullElse(leadsAfter, journalsAfter);
        System.out.printf(
                "leader killed (SIGKILL): %s (%s, token %d) -> %s (%s) leads after %d ms, first journal row after %d ms;"
                        + " ttl %s%n",
                leader,
                leaderView.instance(),
                term,
                survivor,
                standingBy.instance(),
                takeover.toMillis(),
                journalsAfter.toMillis(),
                ttl);
        assertThat(takeover)
                .as("from the kill to %s leading (ttl %s)", survivor, ttl)
                .isLessThanOrEqualTo(ttl.plus(TAKEOVER_MARGIN));

        // the journal, in the database's order: one leader after the other, the fence never broken
        List<JournalRow> journal = relay(survivor).journal();
        String killed = leaderView.instance();
        String taker = standingBy.instance();
        assertThat(journal).as("the whole journal (below the limit)").hasSizeLessThan(10_000);
        for (int i = 1; i < journal.size(); i++) {
            assertThat(journal.get(i).token())
                    .as("token of row %d of %s", i, journal)
                    .isGreaterThanOrEqualTo(journal.get(i - 1).token());
        }
        long killedMax = journal.stream()
                .filter(row -> row.by(killed))
                .mapToLong(JournalRow::token)
                .max()
                .orElseThrow();
        assertThat(journal.stream().filter(row -> row.by(taker)))
                .as("rows of the survivor %s, all above the killed leader's tokens (up to %d)", taker, killedMax)
                .isNotEmpty()
                .allMatch(row -> row.token() > killedMax);
        List<String> runs = new ArrayList<>();
        for (JournalRow row : journal) {
            if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(row.instance())) {
                runs.add(row.instance());
            }
        }
        assertThat(runs).as("instances in the journal's order by database time").containsExactly(killed, taker);
    }

    /** This instance's view of the relay, from {@code GET /api/relay}. */
    private record Relay(String instance, boolean leads, Duration ttl, List<JournalRow> journal) {
        long rowsBy(String name) {
            return journal.stream().filter(row -> row.by(name)).count();
        }
    }

    /** A row of the relay's journal: which instance ran the relay, with which term's token, at what database time. */
    private record JournalRow(String instance, long token, String writtenAt) {
        boolean by(String name) {
            return instance.equals(name);
        }
    }

    private static Relay relay(Instance instance) throws IOException, InterruptedException {
        HttpResponse<String> response = get(instance, "relay?limit=10000");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Matcher relay = RELAY.matcher(response.body());
        assertThat(relay.find()).as("%s in %s", RELAY, response.body()).isTrue();
        List<JournalRow> journal = new ArrayList<>();
        Matcher row = JOURNAL_ROW.matcher(response.body());
        while (row.find()) {
            journal.add(new JournalRow(row.group(1), Long.parseLong(row.group(2)), row.group(3)));
        }
        return new Relay(relay.group(1), Boolean.parseBoolean(relay.group(2)), duration(relay.group(3)), journal);
    }

    /** A duration as Baton's configuration writes it: {@code 30s}, {@code 500ms}, {@code 1m}, or ISO-8601. */
    private static Duration duration(String text) {
        Matcher m = SHORT_DURATION.matcher(text.strip());
        if (!m.matches()) {
            return Duration.parse(text.strip());
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    /** {@code GET /api/sweeps}: planned epoch second to its line ({@code <second> runs=<n> by=<instances>}). */
    private static Map<Long, String> sweeps(Instance instance) throws IOException, InterruptedException {
        HttpResponse<String> response = get(instance, "sweeps?limit=1000");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<Long, String> lines = new TreeMap<>();
        for (String line : response.body().split("\n")) {
            if (!line.isBlank() && Character.isDigit(line.charAt(0))) {
                lines.put(Long.parseLong(line.substring(0, line.indexOf(' '))), line + " ");
            }
        }
        return lines;
    }

    private static long skippedHere(Instance instance) throws IOException, InterruptedException {
        return number(SKIPPED, get(instance, "sweeps?limit=1").body());
    }

    private static long number(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body);
        assertThat(m.find()).as("%s in %s", pattern, body).isTrue();
        return Long.parseLong(m.group(1)); // tokens may be microseconds (Redis)
    }

    private static HttpResponse<String> post(Instance instance, String path) throws IOException, InterruptedException {
        return send(instance, "POST", path);
    }

    private static HttpResponse<String> get(Instance instance, String path) throws IOException, InterruptedException {
        return send(instance, "GET", path);
    }

    private static HttpResponse<String> send(Instance instance, String method, String path)
            throws IOException, InterruptedException {
        URI uri = instance.baseUri().resolve("api/" + path);
        return CLIENT.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofMinutes(2))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private static <T> T unchecked(Call<T> call) {
        try {
            return call.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (run through Maven)");
        }
        return value;
    }
}
