package dev.baton.impl.config;

import dev.baton.LockConfigurationException;
import dev.baton.Synchronized;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * Baton's configuration, read from MicroProfile Config and validated once. Every key lives under
 * {@code baton.}; a named manager's keys under {@code baton.<name>.} fall back to the default
 * manager's.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>default</th></tr>
 * <tr><td>{@code baton.store}</td><td>the application's {@code LockStore} bean; {@code memory} only when there is no
 * {@code LockStore} bean at all (with a warning)</td></tr>
 * <tr><td>{@code baton.ttl}</td><td>30s</td></tr>
 * <tr><td>{@code baton.timeout}</td><td>10s</td></tr>
 * <tr><td>{@code baton.prefix}</td><td>(none)</td></tr>
 * <tr><td>{@code baton.renew-interval}</td><td>a third of each lock's ttl</td></tr>
 * <tr><td>{@code baton.interrupt-on-loss}</td><td>false</td></tr>
 * <tr><td>{@code baton.renew-threads}</td><td>4: the most renewal calls of a manager in flight at once (1 to 64)</td></tr>
 * <tr><td>{@code baton.poll-min-interval}</td><td>5ms: a waiter's first pause between two polls of the store</td></tr>
 * <tr><td>{@code baton.poll-max-interval}</td><td>500ms: its longest pause (see {@link PollPolicy})</td></tr>
 * <tr><td>{@code baton.poll-jitter}</td><td>0.5: the largest fraction taken off each pause at random</td></tr>
 * <tr><td>{@code baton.managers}</td><td>(none): comma-separated names of further managers</td></tr>
 * <tr><td>{@code baton.interceptor.priority}</td><td>{@link Synchronized#DEFAULT_PRIORITY}</td></tr>
 * <tr><td>{@code baton.exclusive.hold}</td><td>(none): the hold of every {@code @Exclusive} method that sets none; unset,
 * half the interval to the next planned firing, at most 30 s</td></tr>
 * <tr><td>{@code baton.exclusive.priority}</td><td>{@link dev.baton.Exclusive#DEFAULT_PRIORITY}</td></tr>
 * <tr><td>{@code baton.admin.force-release}</td><td>false: whether {@code Locks.forceRelease} may free a key whoever
 * holds it (every manager)</td></tr>
 * <tr><td>{@code baton.health.enabled}</td><td>true: MicroProfile Health checks, where the Health API is present</td></tr>
 * <tr><td>{@code baton.metrics.enabled}</td><td>true: metrics through OpenTelemetry, else MicroProfile Metrics, where the API is present</td></tr>
 * <tr><td>{@code baton.metrics.api}</td><td>auto: which API records the metrics ({@link MetricsApi})</td></tr>
 * <tr><td>{@code baton.shutdown-grace}</td><td>5s: at shutdown, how long to wait for the work under held locks
 * to end (0 to 10m, for every manager)</td></tr>
 * </table>
 */
public final class BatonConfig {

    /** The prefix of every key. */
    public static final String PREFIX = "baton.";

    /** The hold of every {@code @Exclusive} method that sets none. */
    public static final String EXCLUSIVE_HOLD = PREFIX + "exclusive.hold";
    /** The priority of the {@code @Exclusive} interceptor. */
    public static final String EXCLUSIVE_PRIORITY = PREFIX + "exclusive.priority";
    /** Whether {@code Locks.forceRelease} is allowed. */
    public static final String FORCE_RELEASE = PREFIX + "admin.force-release";
    /** Whether the MicroProfile Health checks are registered (where the Health API is present). */
    public static final String HEALTH_ENABLED = PREFIX + "health.enabled";
    /** Whether metrics are recorded (where the OpenTelemetry API is present). */
    public static final String METRICS_ENABLED = PREFIX + "metrics.enabled";
    /** Which API records the metrics. */
    public static final String METRICS_API = PREFIX + "metrics.api";

    /** The values of {@value #METRICS_API}. */
    public enum MetricsApi {
        /** OpenTelemetry where it meters, else MicroProfile Metrics, else none. */
        AUTO("auto"),
        /** OpenTelemetry, even where it meters nothing (its SDK disabled); required. */
        OPENTELEMETRY("opentelemetry"),
        /** MicroProfile Metrics, even where OpenTelemetry meters; required. */
        MICROPROFILE_METRICS("microprofile-metrics");

        private final String value;

        MetricsApi(String value) {
            this.value = value;
        }

        /** @return the value as configured */
        public String value() {
            return value;
        }
    }

    private static final Pattern MANAGER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern STORE_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /**
     * The settings every manager reads, below {@code baton.} for the default one and {@code baton.<name>.} for a
     * named one: what {@link #readManager} reads, and what the check of unknown keys ({@link KnownKeys}) knows.
     */
    static final Set<String> MANAGER_SETTINGS = Set.of(
            "store",
            "ttl",
            "timeout",
            "prefix",
            "renew-interval",
            "interrupt-on-loss",
            "renew-threads",
            "poll-min-interval",
            "poll-max-interval",
            "poll-jitter");

    /** The keys read once, for every manager: never below {@code baton.<name>.}. */
    static final Set<String> GLOBAL_KEYS = Set.of(
            PREFIX + "managers",
            PREFIX + "interceptor.priority",
            PREFIX + "shutdown-grace",
            EXCLUSIVE_HOLD,
            EXCLUSIVE_PRIORITY,
            FORCE_RELEASE,
            HEALTH_ENABLED,
            METRICS_ENABLED,
            METRICS_API);

    /** The built-in stores and those of Baton's store modules, whose settings live below {@code baton.<store>.}. */
    private static final Set<String> STORES = Set.of("memory", "file", "jpa", "redis");

    /**
     * Names that are keys of their own below {@code baton.} and so cannot name a manager: the first part of every
     * key above, and the stores.
     */
    private static final Set<String> RESERVED = reserved();

    private static Set<String> reserved() {
        Set<String> reserved = new java.util.HashSet<>(MANAGER_SETTINGS);
        reserved.addAll(STORES);
        for (String key : GLOBAL_KEYS) {
            reserved.add(key.substring(PREFIX.length()).split("\\.")[0]);
        }
        return Set.copyOf(reserved);
    }

    /** The default of {@code baton.shutdown-grace}: 5 s. */
    public static final long DEFAULT_SHUTDOWN_GRACE_MILLIS = 5_000;
    /** The most {@code baton.shutdown-grace} may be: a shutdown must not hang on Baton for long. */
    static final long MAX_SHUTDOWN_GRACE_MILLIS = 600_000;

    private static final Pattern ZERO_DURATION = Pattern.compile("0+\\s*(ms|s|m|h|d)?|[Pp][Tt]0+[SsMmHh]|[Pp]0+[Dd]");

    private final Config config;
    private final Map<String, ManagerSettings> managers;
    private final int interceptorPriority;
    private final long shutdownGraceMillis;
    private final OptionalLong exclusiveHoldMillis;
    private final boolean forceRelease;
    private final boolean healthEnabled;
    private final boolean metricsEnabled;
    private final MetricsApi metricsApi;

    private BatonConfig(
            Config config,
            Map<String, ManagerSettings> managers,
            int interceptorPriority,
            long shutdownGraceMillis,
            OptionalLong exclusiveHoldMillis,
            boolean forceRelease,
            boolean healthEnabled,
            boolean metricsEnabled,
            MetricsApi metricsApi) {
        this.metricsEnabled = metricsEnabled;
        this.metricsApi = metricsApi;
        this.forceRelease = forceRelease;
        this.healthEnabled = healthEnabled;
        this.config = config;
        this.managers = managers;
        this.interceptorPriority = interceptorPriority;
        this.shutdownGraceMillis = shutdownGraceMillis;
        this.exclusiveHoldMillis = exclusiveHoldMillis;
    }

    /**
     * Reads and validates the configuration.
     *
     * @param config the MicroProfile Config
     * @return the configuration
     * @throws LockConfigurationException listing every invalid key and value
     */
    public static BatonConfig read(Config config) {
        List<String> problems = new ArrayList<>();
        Map<String, ManagerSettings> managers = new LinkedHashMap<>();
        ManagerSettings defaults = readManager(config, "", null, problems);
        if (defaults != null) {
            managers.put("", defaults);
        }
        for (String name : managerNames(config, problems)) {
            ManagerSettings settings = readManager(config, name, defaults, problems);
            if (settings != null) {
                managers.put(name, settings);
            }
        }
        int priority = Synchronized.DEFAULT_PRIORITY;
        Optional<String> rawPriority = config.getOptionalValue(PREFIX + "interceptor.priority", String.class);
        if (rawPriority.isPresent()) {
            try {
                priority = Integer.parseInt(rawPriority.get().trim());
            } catch (NumberFormatException e) {
                problems.add(PREFIX + "interceptor.priority: '" + rawPriority.get() + "' is not an integer");
            }
        }
        long grace = shutdownGrace(config, problems);
        OptionalLong exclusiveHold = text(config, EXCLUSIVE_HOLD).isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(duration(config, EXCLUSIVE_HOLD, 0, problems));
        if (text(config, EXCLUSIVE_PRIORITY).isPresent()) {
            try {
                Integer.parseInt(text(config, EXCLUSIVE_PRIORITY).get());
            } catch (NumberFormatException e) {
                problems.add(EXCLUSIVE_PRIORITY + ": '"
                        + text(config, EXCLUSIVE_PRIORITY).get() + "' is not an integer");
            }
        }
        boolean forceRelease = bool(config, FORCE_RELEASE, false, problems);
        boolean health = bool(config, HEALTH_ENABLED, true, problems);
        boolean metrics = bool(config, METRICS_ENABLED, true, problems);
        MetricsApi metricsApi = metricsApi(config, problems);
        if (!problems.isEmpty()) {
            throw new LockConfigurationException("Invalid Baton configuration: " + String.join("; ", problems));
        }
        return new BatonConfig(
                config,
                Collections.unmodifiableMap(managers),
                priority,
                grace,
                exclusiveHold,
                forceRelease,
                health,
                metrics,
                metricsApi);
    }

    /**
     * Reads only the interceptor priority, which is needed before the rest can be validated.
     *
     * @param config the MicroProfile Config
     * @return the priority, or the default when it is absent or not an integer (reported later)
     */
    public static int interceptorPriority(Config config) {
        try {
            return config.getOptionalValue(PREFIX + "interceptor.priority", String.class)
                    .map(String::trim)
                    .map(Integer::parseInt)
                    .orElse(Synchronized.DEFAULT_PRIORITY);
        } catch (NumberFormatException e) {
            return Synchronized.DEFAULT_PRIORITY;
        }
    }

    /**
     * Reads only the {@code @Exclusive} interceptor's priority, which is needed before the rest can be validated.
     *
     * @param config the MicroProfile Config
     * @return the priority, or the default when it is absent or not an integer (reported later)
     */
    public static int exclusivePriority(Config config) {
        try {
            return config.getOptionalValue(EXCLUSIVE_PRIORITY, String.class)
                    .map(String::trim)
                    .map(Integer::parseInt)
                    .orElse(dev.baton.Exclusive.DEFAULT_PRIORITY);
        } catch (NumberFormatException e) {
            return dev.baton.Exclusive.DEFAULT_PRIORITY;
        }
    }

    /**
     * @return {@code baton.exclusive.hold}: the hold of the {@code @Exclusive} methods that set none, if configured
     */
    public OptionalLong exclusiveHoldMillis() {
        return exclusiveHoldMillis;
    }

    /**
     * @return the validated managers by name; the default one under the empty name
     */
    public Map<String, ManagerSettings> managers() {
        return managers;
    }

    /**
     * @param name a manager name, empty for the default
     * @return its settings, if declared
     */
    public Optional<ManagerSettings> manager(String name) {
        return Optional.ofNullable(managers.get(name));
    }

    /**
     * @return the interceptor's priority
     */
    public int interceptorPriority() {
        return interceptorPriority;
    }

    /**
     * @return {@code baton.shutdown-grace}: at shutdown, how long to wait for the work under held locks to
     *     end before leaving the locks whose work still runs to expire; 0 not to wait
     */
    public long shutdownGraceMillis() {
        return shutdownGraceMillis;
    }

    /** @return {@code baton.admin.force-release}: whether {@code Locks.forceRelease} may free keys */
    public boolean forceReleaseEnabled() {
        return forceRelease;
    }

    /** @return {@code baton.health.enabled}: whether the health checks are registered where the Health API is */
    public boolean healthEnabled() {
        return healthEnabled;
    }

    /** @return {@code baton.metrics.enabled}: whether metrics are recorded (OpenTelemetry, else MicroProfile Metrics) and acquisitions added to trace spans */
    public boolean metricsEnabled() {
        return metricsEnabled;
    }

    /** @return {@code baton.metrics.api}: which API records the metrics */
    public MetricsApi metricsApi() {
        return metricsApi;
    }

    /**
     * A raw value, for annotation overrides and store settings.
     *
     * @param key the full key
     * @return the value, if set and not blank
     */
    public Optional<String> value(String key) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(s -> !s.isEmpty());
    }

    /**
     * The store a manager names itself, not inherited: {@code baton.store} for the default manager,
     * {@code baton.<name>.store} for a named one.
     *
     * @param manager the manager name, empty for the default
     * @return the store name, if the manager sets one
     */
    public Optional<String> ownStore(String manager) {
        return value(key(manager, "store"));
    }

    /**
     * @param prefix the start of the keys, e.g. {@code baton.reports.jpa.}
     * @return the configured keys that start with it, sorted
     */
    public List<String> keysStartingWith(String prefix) {
        List<String> keys = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(prefix)) {
                keys.add(name);
            }
        }
        Collections.sort(keys);
        return keys;
    }

    /**
     * The key under which a manager reads a setting.
     *
     * @param manager the manager name, empty for the default
     * @param setting the setting, e.g. {@code ttl} or {@code jpa.table}
     * @return e.g. {@code baton.ttl} or {@code baton.reports.ttl}
     */
    public static String key(String manager, String setting) {
        return manager.isEmpty() ? PREFIX + setting : PREFIX + manager + "." + setting;
    }

    private static List<String> managerNames(Config config, List<String> problems) {
        List<String> names = new ArrayList<>();
        Optional<String> raw = config.getOptionalValue(PREFIX + "managers", String.class);
        if (raw.isEmpty()) {
            return names;
        }
        for (String part : raw.get().split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (!MANAGER_NAME.matcher(name).matches()) {
                problems.add(
                        PREFIX + "managers: '" + name + "' is not a valid manager name (letters, digits, '_' and '-')");
            } else if (RESERVED.contains(name)) {
                problems.add(PREFIX + "managers: '" + name + "' is reserved (it is a configuration key of its own)");
            } else if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private static ManagerSettings readManager(
            Config config, String name, ManagerSettings parent, List<String> problems) {
        int before = problems.size();
        Optional<String> store = text(config, key(name, "store"));
        if (store.isPresent() && !STORE_NAME.matcher(store.get()).matches()) {
            problems.add(key(name, "store") + ": '" + store.get() + "' is not a store name");
        }
        if (store.isEmpty() && parent != null) {
            store = parent.store();
        }
        long ttl = duration(
                config,
                key(name, "ttl"),
                parent == null ? ManagerSettings.DEFAULT_TTL_MILLIS : parent.ttlMillis(),
                problems);
        long timeout = duration(
                config,
                key(name, "timeout"),
                parent == null ? ManagerSettings.DEFAULT_TIMEOUT_MILLIS : parent.timeoutMillis(),
                problems);
        long renew = duration(
                config, key(name, "renew-interval"), parent == null ? 0 : parent.renewIntervalMillis(), problems);
        // An interval inherited from the default manager may be longer than this manager's own ttl: its locks
        // are then renewed at a third of their lease (ManagerSettings#renewIntervalMillis), as any shorter lease is.
        boolean ownRenew = text(config, key(name, "renew-interval")).isPresent();
        if (ownRenew && renew >= ttl) {
            problems.add(
                    key(name, "renew-interval") + ": " + renew + " ms must be shorter than the ttl (" + ttl + " ms)");
        }
        String prefix = config.getOptionalValue(key(name, "prefix"), String.class)
                .orElse(parent == null ? "" : parent.prefix());
        if (prefix.length() >= dev.baton.spi.LockArguments.MAX_KEY_LENGTH) {
            problems.add(key(name, "prefix") + ": " + prefix.length() + " chars leaves no room for keys (at most "
                    + dev.baton.spi.LockArguments.MAX_KEY_LENGTH + " chars with the prefix)");
        } else if (!prefix.isEmpty()) {
            try {
                // NUL is left to each store (some keep it); invalid UTF-16 no store can keep.
                dev.baton.spi.LockArguments.requireValidKey(prefix, true);
            } catch (IllegalArgumentException e) {
                problems.add(key(name, "prefix") + ": '" + prefix + "' is not valid: "
                        + e.getMessage().replaceFirst("^lock key", "it"));
            }
        }
        boolean interrupt =
                bool(config, key(name, "interrupt-on-loss"), parent != null && parent.interruptOnLoss(), problems);
        PollPolicy poll = poll(config, name, parent == null ? PollPolicy.DEFAULT : parent.poll(), problems);
        int renewThreads = renewThreads(
                config,
                key(name, "renew-threads"),
                parent == null ? ManagerSettings.DEFAULT_RENEW_THREADS : parent.renewThreads(),
                problems);
        if (problems.size() > before) {
            return null;
        }
        return new ManagerSettings(name, store, ttl, timeout, prefix, renew, interrupt, poll, renewThreads);
    }

    /** The manager's poll settings over its parent's (the default manager's, or the built-in defaults). */
    private static PollPolicy poll(Config config, String name, PollPolicy parent, List<String> problems) {
        String minKey = key(name, "poll-min-interval");
        String maxKey = key(name, "poll-max-interval");
        String jitterKey = key(name, "poll-jitter");
        int before = problems.size();
        OptionalLong min = text(config, minKey).isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(duration(config, minKey, 0, problems));
        OptionalLong max = text(config, maxKey).isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(duration(config, maxKey, 0, problems));
        OptionalDouble jitter = OptionalDouble.empty();
        try {
            Optional<String> rawJitter = text(config, jitterKey);
            if (rawJitter.isPresent()) {
                jitter = OptionalDouble.of(PollPolicy.parseJitter(rawJitter.get(), jitterKey));
            }
            if (problems.size() > before) {
                return parent;
            }
            return parent.with(min, minKey, max, maxKey, jitter);
        } catch (LockConfigurationException e) {
            problems.add(e.getMessage());
            return parent;
        }
    }

    private static long shutdownGrace(Config config, List<String> problems) {
        String key = PREFIX + "shutdown-grace";
        Optional<String> raw = text(config, key);
        if (raw.isEmpty()) {
            return DEFAULT_SHUTDOWN_GRACE_MILLIS;
        }
        if (ZERO_DURATION.matcher(raw.get()).matches()) {
            return 0;
        }
        long grace = duration(config, key, DEFAULT_SHUTDOWN_GRACE_MILLIS, problems);
        if (grace > MAX_SHUTDOWN_GRACE_MILLIS) {
            problems.add(key + ": '" + raw.get() + "' is too long: a shutdown waits at most "
                    + MAX_SHUTDOWN_GRACE_MILLIS / 60_000 + "m for the work under held locks");
            return DEFAULT_SHUTDOWN_GRACE_MILLIS;
        }
        return grace;
    }

    private static Optional<String> text(Config config, String key) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(s -> !s.isEmpty());
    }

    private static long duration(Config config, String key, long fallback, List<String> problems) {
        Optional<String> raw = text(config, key);
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            return Durations.parseMillis(raw.get(), key);
        } catch (LockConfigurationException e) {
            problems.add(e.getMessage());
            return fallback;
        }
    }

    private static int renewThreads(Config config, String key, int fallback, List<String> problems) {
        Optional<String> raw = text(config, key);
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            int threads = Integer.parseInt(raw.get());
            if (threads >= 1 && threads <= ManagerSettings.MAX_RENEW_THREADS) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(
                key + ": '" + raw.get() + "' is not a whole number from 1 to " + ManagerSettings.MAX_RENEW_THREADS);
        return fallback;
    }

    private static MetricsApi metricsApi(Config config, List<String> problems) {
        Optional<String> raw = text(config, METRICS_API);
        if (raw.isEmpty()) {
            return MetricsApi.AUTO;
        }
        for (MetricsApi api : MetricsApi.values()) {
            if (api.value().equalsIgnoreCase(raw.get())) {
                return api;
            }
        }
        problems.add(METRICS_API + ": '" + raw.get() + "' is not auto, opentelemetry or microprofile-metrics");
        return MetricsApi.AUTO;
    }

    private static boolean bool(Config config, String key, boolean fallback, List<String> problems) {
        Optional<String> raw = text(config, key);
        if (raw.isEmpty()) {
            return fallback;
        }
        String v = raw.get().toLowerCase(java.util.Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        problems.add(key + ": '" + raw.get() + "' is not true or false");
        return fallback;
    }
}
