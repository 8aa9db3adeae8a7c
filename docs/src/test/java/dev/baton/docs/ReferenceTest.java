package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.KnownKeys;
import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.LossKind;
import dev.baton.impl.health.StoresReadinessCheck;
import dev.baton.impl.jaxrs.LockTimeoutExceptionMapper;
import dev.baton.impl.metrics.Meters;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.spi.LockStoreFactory;
import dev.baton.tck.DeclaredSettings;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.metrics.Metadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/reference.md} and the code name the same things, in both directions: the configuration keys (as
 * the runtime's {@code BatonConfig} and each store's {@link LockStoreFactory#settingNames()} declare them, and
 * the TCK's {@code baton.tck.*} properties), the attributes of {@code @Synchronized} and {@code @Exclusive}, the
 * public exceptions of the API, the events' fields, every log id of the registries of log messages (at the level
 * the reference gives; {@link LogMessagesTest} checks the registries themselves) and every id the main sources
 * mention, the metrics and the health checks. Each test collects every difference
 * before it fails; the counts are printed as a table at the end.
 */
class ReferenceTest {

    /** The modules whose main sources may mention a {@code BATON-} id. */
    static final List<String> MODULES =
            List.of("api", "impl", "jpa-store", "redis-store", "zookeeper-store", "etcd-store", "mongodb-store", "tck");

    private static final Pattern ID = LogMessagesTest.ID;

    private static final Pattern ANCHOR_ROW =
            Pattern.compile("^\\| <a id=\"([a-z0-9-]+)\"></a>`(" + ID.pattern() + ")` \\| ([A-Z]+) \\|");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern TCK_KEY = Pattern.compile("\"(baton\\.tck\\.[A-Za-z.]+)\"");
    private static final Pattern FIELD = Pattern.compile("`(\\w+)` \\(`([^`]+)`");

    /** Kind: in the code, in the reference, missing from the reference, not in the code. */
    private static final Map<String, int[]> SUMMARY = new TreeMap<>();

    private static Path reference() {
        return Documents.root().resolve("docs/reference.md");
    }

    // ---------------------------------------------------------------------------------------------------- keys

    @Test
    void configurationKeys() throws Exception {
        Map<String, LockStoreFactory> factories = StoreRegistry.factories();
        assertThat(factories).containsKeys("memory", "file", "jpa", "redis", "zookeeper", "etcd", "mongodb");
        Set<String> code = new TreeSet<>(staticSet(BatonConfig.class, "GLOBAL_KEYS"));
        for (String setting : staticSet(BatonConfig.class, "MANAGER_SETTINGS")) {
            code.add(BatonConfig.PREFIX + setting);
        }
        factories.forEach((store, factory) -> factory.settingNames()
                .orElseThrow(() -> new AssertionError("the store " + store + " declares no settings"))
                .forEach(name -> code.add(BatonConfig.PREFIX + store + "." + name)));
        code.addAll(tckKeys());

        List<String> documented = DeclaredSettings.documentedKeys(reference());
        Set<String> concrete = new TreeSet<>();
        Set<String> placeholders = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (String key : documented) {
            if (!(key.contains("<") ? placeholders : concrete).add(key)) {
                problems.add(key + " is listed twice");
            }
        }
        compare("configuration keys", code, concrete, problems);

        // the per-manager forms: exactly these, and each one the runtime knows in a concrete case
        Set<String> forms = Set.of("baton.<manager>.<setting>", "baton.<manager>.<store>.<setting>");
        if (!placeholders.equals(forms)) {
            problems.add("the per-manager forms are " + placeholders + ", expected " + forms);
        }
        KnownKeys known = KnownKeys.of(List.of("reports"), factories);
        for (String example : List.of("baton.reports.ttl", "baton.reports.poll-jitter", "baton.reports.jpa.table")) {
            known.check(example).ifPresent(unknown -> problems.add("the form of " + example + " is not known"));
        }
        assertThat(problems)
                .as("configuration keys: the code's and docs/reference.md's")
                .isEmpty();
    }

    /** The TCK's own system properties: the string literals of its main sources that are one. */
    private static Set<String> tckKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (Path source : sources("tck")) {
            Matcher m = TCK_KEY.matcher(Files.readString(source));
            while (m.find()) {
                keys.add(m.group(1));
            }
        }
        assertThat(keys).as("the TCK's baton.tck.* properties").contains("baton.tck.timeFactor");
        return keys;
    }

    @SuppressWarnings("unchecked")
    private static Set<String> staticSet(Class<?> type, String name) throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return (Set<String>) field.get(null);
    }

    // ------------------------------------------------------------------------------------------------- log ids

    @Test
    void logIds() throws IOException {
        // the ids, with their levels, are the registries' (LogMessagesTest checks that they are unique and that
        // no other main source writes one in a string literal)
        Map<String, String> defined = new TreeMap<>();
        for (LogMessagesTest.Message message : LogMessagesTest.messages()) {
            defined.put(message.id(), message.level().name());
        }
        Path root = Documents.root();
        Map<String, List<String>> mentioned = new TreeMap<>();
        for (String module : MODULES) {
            for (Path source : sources(module)) {
                String text = Files.readString(source);
                String file = root.relativize(source).toString();
                Matcher m = ID.matcher(text);
                while (m.find()) {
                    mentioned
                            .computeIfAbsent(m.group(), id -> new ArrayList<>())
                            .add(file + ":" + line(text, m.start()));
                }
            }
        }
        List<String> problems = new ArrayList<>();
        mentioned.forEach((id, places) -> {
            if (!defined.containsKey(id)) {
                problems.add(id + " is mentioned at " + places + " but no message has it");
            }
        });

        Map<String, String> documented = new TreeMap<>();
        for (String row : section("Log messages")) {
            Matcher m = ANCHOR_ROW.matcher(row);
            if (m.find()) {
                if (!m.group(1).equals(m.group(2).toLowerCase(java.util.Locale.ROOT))) {
                    problems.add(m.group(2) + "'s anchor is " + m.group(1));
                }
                if (documented.put(m.group(2), m.group(3)) != null) {
                    problems.add(m.group(2) + " has two rows");
                }
            } else if (row.startsWith("| ") && ID.matcher(row.split("\\|")[1]).find()) {
                problems.add("a row without its anchor: " + row);
            }
        }
        compare("log ids", defined.keySet(), documented.keySet(), problems);
        defined.forEach((id, level) -> {
            if (documented.containsKey(id) && !level.equals(documented.get(id))) {
                problems.add(id + " is logged at " + level + ", the reference says " + documented.get(id));
            }
        });
        assertThat(problems)
                .as("log ids: the main sources' and docs/reference.md's")
                .isEmpty();
    }

    private static int line(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    // ------------------------------------------------------------------------------------------------- metrics

    @Test
    void metrics() throws Exception {
        // MicroProfile Metrics: the metadata its meters register, one per metric of the catalogue
        Field metadata = Class.forName("dev.baton.impl.metrics.MpMetricsMeters").getDeclaredField("METADATA");
        metadata.setAccessible(true);
        Set<String> mpNames = new TreeSet<>();
        for (Object each : ((Map<?, ?>) metadata.get(null)).values()) {
            mpNames.add(((Metadata) each).getName());
        }

        // OpenTelemetry: what its meters record, every kind of event once, on an in-memory reader
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setMeterProvider(
                        SdkMeterProvider.builder().registerMetricReader(reader).build())
                .build();
        Method on = Class.forName("dev.baton.impl.metrics.OtelMeters").getDeclaredMethod("on", OpenTelemetry.class);
        on.setAccessible(true);
        EngineMetrics engine = ((Meters) on.invoke(null, sdk)).engine("", "memory");
        for (EngineMetrics.Outcome outcome : EngineMetrics.Outcome.values()) {
            engine.acquisition(outcome, 1_000_000);
        }
        engine.holding();
        engine.released(1_000_000);
        engine.renewals(1, 1);
        for (LossKind kind : LossKind.values()) {
            engine.lost(kind);
        }
        Field operations = Class.forName("dev.baton.impl.metrics.MeteredStore").getDeclaredField("OPERATIONS");
        operations.setAccessible(true);
        for (Object operation : (List<?>) operations.get(null)) {
            engine.storeCall((String) operation, 1_000_000);
        }
        Map<String, MetricData> otel = new TreeMap<>();
        for (MetricData data : reader.collectAllMetrics()) {
            otel.put(data.getName(), data);
        }
        sdk.close();

        List<String> problems = new ArrayList<>();
        if (!mpNames.equals(otel.keySet())) {
            problems.add("MicroProfile Metrics records " + mpNames + ", OpenTelemetry " + otel.keySet());
        }
        Map<String, List<String>> rows = rows(section("Metrics"), "metric");
        compare("metrics", otel.keySet(), rows.keySet(), problems);
        otel.forEach((name, data) -> {
            List<String> row = rows.get(name);
            if (row == null) {
                return;
            }
            String kind = otelKind(data);
            if (!row.get(0).startsWith(kind)) {
                problems.add(name + " is an OpenTelemetry " + kind + ", the reference says " + row.get(0));
            }
            Set<String> written = codes(row.get(2));
            for (PointData point : data.getData().getPoints()) {
                point.getAttributes().forEach((key, value) -> {
                    boolean label = !key.getKey().equals("baton.manager")
                            && !key.getKey().equals("baton.store");
                    if (!written.contains(key.getKey()) || label && !written.contains(String.valueOf(value))) {
                        problems.add(name + " has the attribute " + key.getKey() + "=" + value
                                + ", which the reference's row does not name");
                    }
                });
            }
        });
        assertThat(problems).as("metrics: the code's and docs/reference.md's").isEmpty();
    }

    private static String otelKind(MetricData data) {
        return switch (data.getType()) {
            case LONG_SUM -> data.getLongSumData().isMonotonic() ? "counter" : "up-down counter";
            case DOUBLE_SUM -> data.getDoubleSumData().isMonotonic() ? "counter" : "up-down counter";
            case HISTOGRAM, EXPONENTIAL_HISTOGRAM -> "histogram";
            default -> data.getType().toString();
        };
    }

    // ------------------------------------------------------------------------------------------- health checks

    @Test
    void healthChecks() throws Exception {
        Map<String, String> code = new TreeMap<>();
        for (Class<?> type : classes(StoresReadinessCheck.class, "dev/baton/impl/health/")) {
            if (HealthCheck.class.isAssignableFrom(type) && !type.isInterface()) {
                String kind = type.isAnnotationPresent(Readiness.class)
                        ? "readiness"
                        : type.isAnnotationPresent(Liveness.class) ? "liveness" : "startup";
                code.put((String) type.getField("NAME").get(null), kind);
            }
        }
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> rows = rows(section("Health checks"), "check");
        compare("health checks", code.keySet(), rows.keySet(), problems);
        code.forEach((name, kind) -> {
            if (rows.containsKey(name) && !rows.get(name).get(0).startsWith(kind)) {
                problems.add(name + " is a " + kind + " check, the reference says "
                        + rows.get(name).get(0));
            }
        });
        assertThat(problems)
                .as("health checks: the code's and docs/reference.md's")
                .isEmpty();
    }

    // ---------------------------------------------------------------------------------------------- exceptions

    @Test
    void exceptions() throws Exception {
        Map<String, String> code = new TreeMap<>();
        for (Class<?> type : classes(LockException.class, "dev/baton/")) {
            if (Throwable.class.isAssignableFrom(type) && Modifier.isPublic(type.getModifiers())) {
                code.put(type.getSimpleName(), type.getSuperclass().getSimpleName());
            }
        }
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> rows = rows(section("Exceptions"), "exception");
        compare("exceptions", code.keySet(), rows.keySet(), problems);
        code.forEach((name, parent) -> {
            if (rows.containsKey(name) && !rows.get(name).get(0).equals("`" + parent + "`")) {
                problems.add(name + " extends " + parent + ", the reference says "
                        + rows.get(name).get(0));
            }
        });
        Field type = LockTimeoutExceptionMapper.class.getDeclaredField("TYPE");
        type.setAccessible(true);
        List<String> timeout = rows.get("LockTimeoutException");
        if (timeout != null
                && !(timeout.get(2).contains("409") && timeout.get(2).contains("`" + type.get(null) + "`"))) {
            problems.add("LockTimeoutException is answered with 409 and the problem type " + type.get(null)
                    + ", the reference says " + timeout.get(2));
        }
        // the exceptions with a JAX-RS mapper of Baton's are those whose status is not the server's default
        Set<String> mapped = new TreeSet<>();
        for (Class<?> mapper : classes(LockTimeoutExceptionMapper.class, "dev/baton/impl/")) {
            for (Type implemented : mapper.getGenericInterfaces()) {
                if (implemented instanceof ParameterizedType p && p.getRawType() == ExceptionMapper.class) {
                    mapped.add(((Class<?>) p.getActualTypeArguments()[0]).getSimpleName());
                }
            }
        }
        Set<String> documentedMapped = new TreeSet<>();
        rows.forEach((name, row) -> {
            if (!row.get(2).startsWith("500") && !row.get(2).startsWith("deployment fails")) {
                documentedMapped.add(name);
            }
        });
        if (!mapped.equals(documentedMapped)) {
            problems.add("Baton maps " + mapped + " to an HTTP answer of its own, the reference " + documentedMapped);
        }
        assertThat(problems).as("exceptions: the API's and docs/reference.md's").isEmpty();
    }

    // --------------------------------------------------------------------------------------------- annotations

    @Test
    void annotationAttributes() throws IOException {
        List<String> problems = new ArrayList<>();
        int[] counts = new int[4];
        for (Class<?> annotation : List.of(dev.baton.Synchronized.class, dev.baton.Exclusive.class)) {
            Set<String> overridable = overridable(PLANS.get(annotation));
            Map<String, List<String>> rows =
                    rows(subsection("Annotations", "@" + annotation.getSimpleName()), "attribute");
            Map<String, Method> code = new TreeMap<>();
            for (Method member : annotation.getDeclaredMethods()) {
                code.put(member.getName(), member);
            }
            counts[0] += code.size();
            counts[1] += rows.size();
            int[] off = missingAndExtra("@" + annotation.getSimpleName(), code.keySet(), rows.keySet(), problems);
            counts[2] += off[0];
            counts[3] += off[1];
            code.forEach((name, member) -> {
                List<String> row = rows.get(name);
                if (row == null) {
                    return;
                }
                String type = "`" + typeName(member.getGenericReturnType()) + "`";
                String value = "`" + defaultValue(member.getDefaultValue()) + "`";
                if (!row.get(0).equals(type) || !row.get(1).equals(value)) {
                    problems.add("@" + annotation.getSimpleName() + "." + name + " is " + type + " = " + value
                            + ", the reference says " + row.get(0) + " = " + row.get(1));
                }
                String override = overridable.contains(name) ? "yes" : "no";
                if (!row.get(2).equals(override)) {
                    problems.add("@" + annotation.getSimpleName() + "." + name + ": overridable " + override
                            + ", the reference says " + row.get(2));
                }
            });
        }
        SUMMARY.put("annotation attributes", counts);
        assertThat(problems)
                .as("annotation attributes: the API's and docs/reference.md's")
                .isEmpty();
    }

    /** Where each annotation's members are read, with their per-method overrides. */
    private static final Map<Class<?>, String> PLANS = Map.of(
            dev.baton.Synchronized.class, "impl/src/main/java/dev/baton/impl/plan/MethodPlans.java",
            dev.baton.Exclusive.class, "impl/src/main/java/dev/baton/impl/schedule/SchedulePlans.java");

    /** A member whose configured override is looked up: {@code overrides.get("ttl")}, {@code (overrides, "ttl", …)}. */
    private static final Pattern OVERRIDE = Pattern.compile("(?:overrides\\.get\\(|overrides, )\"(\\w+)\"");

    /** The members a plan source looks up an override of. */
    private static Set<String> overridable(String source) throws IOException {
        Set<String> members = new TreeSet<>();
        Matcher m = OVERRIDE.matcher(Files.readString(Documents.root().resolve(source)));
        while (m.find()) {
            members.add(m.group(1));
        }
        assertThat(members).as("the overridable members read in %s", source).contains("manager", "value");
        return members;
    }

    private static String typeName(Type type) {
        if (type instanceof Class<?> c) {
            return c.getSimpleName();
        }
        if (type instanceof ParameterizedType p) {
            return typeName(p.getRawType()) + "<"
                    + String.join(
                            ", ",
                            Arrays.stream(p.getActualTypeArguments())
                                    .map(ReferenceTest::typeName)
                                    .toList())
                    + ">";
        }
        if (type instanceof WildcardType w) {
            return w.getUpperBounds().length == 1 && w.getUpperBounds()[0] != Object.class
                    ? "? extends " + typeName(w.getUpperBounds()[0])
                    : "?";
        }
        return type.getTypeName();
    }

    private static String defaultValue(Object value) {
        if (value instanceof String s) {
            return "\"" + s + "\"";
        }
        if (value instanceof Class<?> c) {
            return c.getSimpleName() + ".class";
        }
        return String.valueOf(value);
    }

    // -------------------------------------------------------------------------------------------------- events

    @Test
    void eventFields() throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, List<String>> code = new TreeMap<>();
        for (Class<?> type : classes(dev.baton.event.LockAcquired.class, "dev/baton/event/")) {
            if (type.isRecord() && Modifier.isPublic(type.getModifiers())) {
                code.put(
                        type.getSimpleName(),
                        Arrays.stream(type.getRecordComponents())
                                .map(c -> c.getName() + " " + typeName(c.getGenericType()))
                                .toList());
            }
        }
        Map<String, List<String>> rows = rows(section("Events"), "event");
        compare("events", code.keySet(), rows.keySet(), problems);
        code.forEach((event, components) -> {
            List<String> row = rows.get(event);
            if (row == null) {
                return;
            }
            List<String> fields = new ArrayList<>();
            Matcher m = FIELD.matcher(row.get(0));
            while (m.find()) {
                // a nested type is written with its outer one: ScheduleSkipped.Reason
                fields.add(m.group(1) + " " + m.group(2).replaceFirst("^\\w+\\.", ""));
            }
            if (!fields.equals(components)) {
                problems.add(event + " has the fields " + components + ", the reference lists " + fields);
            }
        });
        assertThat(problems).as("events: the API's and docs/reference.md's").isEmpty();
    }

    // -------------------------------------------------------------------------------------------------- output

    @AfterAll
    static void printSummary() {
        StringBuilder table = new StringBuilder("\ndocs/reference.md against the code\n");
        table.append(String.format("%-24s %8s %10s %9s %8s%n", "kind", "in code", "reference", "missing", "extra"));
        SUMMARY.forEach(
                (kind, n) -> table.append(String.format("%-24s %8d %10d %9d %8d%n", kind, n[0], n[1], n[2], n[3])));
        System.out.println(table);
    }

    // ----------------------------------------------------------------------------------------------- utilities

    /** Compares what the code has with what the reference names, and records the counts. */
    private static void compare(String kind, Set<String> code, Set<String> documented, List<String> problems) {
        int[] missingAndExtra = missingAndExtra(kind, code, documented, problems);
        SUMMARY.put(kind, new int[] {code.size(), documented.size(), missingAndExtra[0], missingAndExtra[1]});
    }

    private static int[] missingAndExtra(String kind, Set<String> code, Set<String> documented, List<String> problems) {
        Set<String> missing = new TreeSet<>(code);
        missing.removeAll(documented);
        Set<String> extra = new TreeSet<>(documented);
        extra.removeAll(code);
        if (!missing.isEmpty()) {
            problems.add(kind + " the code has and docs/reference.md lacks: " + missing);
        }
        if (!extra.isEmpty()) {
            problems.add(kind + " docs/reference.md names and the code lacks: " + extra);
        }
        return new int[] {missing.size(), extra.size()};
    }

    /** The lines of a {@code ##} section of the reference, without its heading. */
    private static List<String> section(String heading) {
        try {
            List<String> lines = Files.readAllLines(reference());
            int start = lines.indexOf("## " + heading);
            assertThat(start)
                    .as("docs/reference.md has the heading ## %s", heading)
                    .isNotNegative();
            int end = start + 1;
            while (end < lines.size() && !lines.get(end).startsWith("## ")) {
                end++;
            }
            return lines.subList(start + 1, end);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of a {@code ###} subsection of a section. */
    private static List<String> subsection(String heading, String subheading) {
        List<String> lines = section(heading);
        int start = lines.indexOf("### " + subheading);
        assertThat(start)
                .as("docs/reference.md has ### %s under ## %s", subheading, heading)
                .isNotNegative();
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("### ")) {
            end++;
        }
        return lines.subList(start + 1, end);
    }

    /**
     * The rows of the tables whose first header cell is {@code first}, by the code in their first cell.
     *
     * @return the cells after the first of each row, trimmed, by the first cell's code
     */
    private static Map<String, List<String>> rows(List<String> lines, String first) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : lines) {
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            List<String> cells = Arrays.stream(
                            line.substring(1, line.length() - 1).split(" \\| ", -1))
                    .map(String::trim)
                    .toList();
            if (cells.get(0).equals(first)) {
                inTable = true;
            } else if (inTable && !cells.get(0).startsWith("---")) {
                Matcher code = CODE.matcher(cells.get(0));
                assertThat(code.find()).as("a row that names no code: %s", line).isTrue();
                assertThat(rows.put(code.group(1), cells.subList(1, cells.size())))
                        .as("%s has two rows", code.group(1))
                        .isNull();
            }
        }
        return rows;
    }

    /** Every code span of a cell. */
    private static Set<String> codes(String cell) {
        Set<String> codes = new TreeSet<>();
        Matcher m = CODE.matcher(cell);
        while (m.find()) {
            codes.add(m.group(1));
        }
        return codes;
    }

    /** The main Java sources of a module. */
    private static List<Path> sources(String module) throws IOException {
        Path main = Documents.root().resolve(module).resolve("src/main/java");
        try (Stream<Path> files = Files.walk(main)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** The classes below a folder of the jar (or class folder) a class comes from, not initialised. */
    private static Collection<Class<?>> classes(Class<?> from, String folder) throws Exception {
        Path location =
                Path.of(from.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> classes = new ArrayList<>();
        if (Files.isDirectory(location)) {
            collect(location, location.resolve(folder), from.getClassLoader(), classes);
        } else {
            try (FileSystem jar = FileSystems.newFileSystem(location)) {
                collect(jar.getPath("/"), jar.getPath("/" + folder), from.getClassLoader(), classes);
            }
        }
        assertThat(classes).as("classes under %s of %s", folder, location).isNotEmpty();
        return classes;
    }

    private static void collect(Path root, Path folder, ClassLoader loader, List<Class<?>> classes)
            throws IOException, ClassNotFoundException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                String name = relative.substring(0, relative.length() - ".class".length())
                        .replace('/', '.');
                if (!name.endsWith("package-info") && !name.endsWith("module-info")) {
                    try {
                        classes.add(Class.forName(name, false, loader));
                    } catch (LinkageError optionalApiMissing) {
                        // a class of an optional API this class path lacks: neither exception, mapper nor event
                    }
                }
            }
        }
    }
}
