package dev.baton.impl.config;

import dev.baton.Exclusive;
import dev.baton.LockConfigurationException;
import dev.baton.Synchronized;
import dev.baton.spi.KeyFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * no hold (the run lock is released when the run ends)</td></tr>
 * <tr><td>{@code baton.exclusive.retention}</td><td>(none): how long the claim of a planned time is kept, for every
 * {@code @Exclusive} method that sets none; unset, 3 intervals to the next planned firing, at least 1 minute</td></tr>
 * <tr><td>{@code baton.exclusive.priority}</td><td>{@link Exclusive#DEFAULT_PRIORITY}</td></tr>
 * <tr><td>{@code baton.admin.force-release}</td><td>false: whether {@code Locks.forceRelease} may free a key whoever
 * holds it (every manager)</td></tr>
 * <tr><td>{@code baton.admin.force-release.role}</td><td>(none): comma-separated roles; when set, {@code forceRelease}
 * is allowed only to a caller in one of them, checked through the container's security context</td></tr>
 * <tr><td>{@code baton.log.keys}</td><td>plain: how keys appear in Baton's log lines ({@link KeyFormat})</td></tr>
 * <tr><td>{@code baton.http.conflict.key}</td><td>key: what the 409 answer says of the key ({@link ConflictKey})</td></tr>
 * <tr><td>{@code baton.health.details}</td><td>false: a DOWN health answer gives the failure's type, not its
 * message</td></tr>
 * <tr><td>{@code baton.health.enabled}</td><td>true: MicroProfile Health checks, where the Health API is present</td></tr>
 * <tr><td>{@code baton.metrics.enabled}</td><td>true: metrics through OpenTelemetry, else MicroProfile Metrics, where the API is present</td></tr>
 * <tr><td>{@code baton.metrics.api}</td><td>auto: which API records the metrics ({@link MetricsApi})</td></tr>
 * <tr><td>{@code baton.shutdown-grace}</td><td>5s: at shutdown, how long to wait for the work under held locks
 * to end (0 to 10m, for every manager)</td></tr>
 * </table>
 *
 * <p>This class names every key and reads those read once; {@code ManagerSettingsReader} reads the managers, and
 * {@code ConfigValues} parses each value and collects the problems. The interceptors' priorities and
 * {@value #HEALTH_ENABLED} are needed before the configuration is read ({@code BatonBeans},
 * {@code HealthExtension}): {@link #read} only validates them.
 */
public final class BatonConfig {

    /** The prefix of every key. */
    public static final String PREFIX = "baton.";

    /** The hold of every {@code @Exclusive} method that sets none. */
    public static final String EXCLUSIVE_HOLD = PREFIX + "exclusive.hold";
    /** The retention of the planned-time claims of every {@code @Exclusive} method that sets none. */
    public static final String EXCLUSIVE_RETENTION = PREFIX + "exclusive.retention";
    /** The priority of the {@code @Exclusive} interceptor. */
    public static final String EXCLUSIVE_PRIORITY = PREFIX + "exclusive.priority";
    /** Whether {@code Locks.forceRelease} is allowed. */
    public static final String FORCE_RELEASE = PREFIX + "admin.force-release";
    /** The roles that may call {@code Locks.forceRelease}, when it is allowed. */
    public static final String FORCE_RELEASE_ROLE = PREFIX + "admin.force-release.role";
    /** How keys appear in Baton's log lines. */
    public static final String LOG_KEYS = PREFIX + "log.keys";
    /** What the 409 answer of a {@code LockTimeoutException} says of the key. */
    public static final String CONFLICT_KEY = PREFIX + "http.conflict.key";
    /** Whether a DOWN health answer carries the failure's message. */
    public static final String HEALTH_DETAILS = PREFIX + "health.details";
    /** Whether the MicroProfile Health checks are registered (where the Health API is present). */
    public static final String HEALTH_ENABLED = PREFIX + "health.enabled";
    /** Whether metrics are recorded (where the OpenTelemetry API is present). */
    public static final String METRICS_ENABLED = PREFIX + "metrics.enabled";
    /** Which API records the metrics. */
    public static final String METRICS_API = PREFIX + "metrics.api";

    /** The names of the further managers. */
    static final String MANAGERS = PREFIX + "managers";

    private static final String INTERCEPTOR_PRIORITY = PREFIX + "interceptor.priority";
    private static final String SHUTDOWN_GRACE = PREFIX + "shutdown-grace";

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

    /**
     * The values of {@value #CONFLICT_KEY}: what the 409 problem body says of the key, in its {@code key} member and
     * in {@code detail}.
     *
     * <p>The default is {@link #KEY}, today's body. The answer goes to the client whose request the key was built
     * from, which mostly knows what it sent, and clients read {@code key} (it was the only member naming the
     * conflict before the problem format): hiding it by default would break them on upgrade. A key built from data
     * the client did not send (a tenant from the principal, a customer looked up from an order) is another matter:
     * there choose {@link #HASH} or {@link #NONE}.
     */
    public enum ConflictKey {
        /** The key as it is, in {@code key} and {@code detail}. */
        KEY("key"),
        /** {@link KeyFormat#HASH}'s form, in {@code key} and {@code detail}: the text of Baton's hashed log lines. */
        HASH("hash"),
        /** No {@code key} member, and {@code detail} without the key. */
        NONE("none");

        private final String value;

        ConflictKey(String value) {
            this.value = value;
        }

        /** @return the value as configured */
        public String value() {
            return value;
        }
    }

    /**
     * The settings every manager reads, below {@code baton.} for the default one and {@code baton.<name>.} for a
     * named one: what {@link ManagerSettingsReader} reads, and what the check of unknown keys ({@link KnownKeys})
     * knows.
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
            MANAGERS,
            INTERCEPTOR_PRIORITY,
            SHUTDOWN_GRACE,
            EXCLUSIVE_HOLD,
            EXCLUSIVE_RETENTION,
            EXCLUSIVE_PRIORITY,
            FORCE_RELEASE,
            FORCE_RELEASE_ROLE,
            LOG_KEYS,
            CONFLICT_KEY,
            HEALTH_DETAILS,
            HEALTH_ENABLED,
            METRICS_ENABLED,
            METRICS_API);

    /** The default of {@value #SHUTDOWN_GRACE}: 5 s. */
    private static final long DEFAULT_SHUTDOWN_GRACE_MILLIS = 5_000;
    /** The most {@value #SHUTDOWN_GRACE} may be: a shutdown must not hang on Baton for long. */
    private static final long MAX_SHUTDOWN_GRACE_MILLIS = 600_000;

    private static final Pattern ZERO_DURATION = Pattern.compile("0+\\s*(ms|s|m|h|d)?|[Pp][Tt]0+[SsMmHh]|[Pp]0+[Dd]");

    private final ConfigValues values;
    private final Map<String, ManagerSettings> managers;
    private final long shutdownGraceMillis;
    private final OptionalLong exclusiveHoldMillis;
    private final OptionalLong exclusiveRetentionMillis;
    private final boolean forceRelease;
    private final List<String> forceReleaseRoles;
    private final KeyFormat logKeys;
    private final ConflictKey conflictKey;
    private final boolean healthDetails;
    private final boolean metricsEnabled;
    private final MetricsApi metricsApi;

    /** Reads every key in the order of the problems in the message: the managers first, then the keys read once. */
    private BatonConfig(ConfigValues values) {
        this.values = values;
        this.managers = ManagerSettingsReader.read(values);
        // untrimmed, unlike the other keys: a blank priority is reported, not taken as unset
        values.checkInteger(INTERCEPTOR_PRIORITY, values.raw(INTERCEPTOR_PRIORITY));
        this.shutdownGraceMillis = shutdownGrace(values);
        this.exclusiveHoldMillis = values.duration(EXCLUSIVE_HOLD);
        this.exclusiveRetentionMillis = values.duration(EXCLUSIVE_RETENTION);
        values.checkInteger(EXCLUSIVE_PRIORITY, values.text(EXCLUSIVE_PRIORITY));
        this.forceRelease = values.bool(FORCE_RELEASE, false);
        this.forceReleaseRoles = forceReleaseRoles(values);
        this.logKeys = logKeys(values);
        this.conflictKey = conflictKey(values.text(CONFLICT_KEY), values);
        this.healthDetails = values.bool(HEALTH_DETAILS, false);
        values.bool(HEALTH_ENABLED, true); // only checked: HealthExtension reads it before this
        this.metricsEnabled = values.bool(METRICS_ENABLED, true);
        this.metricsApi = metricsApi(values);
    }

    /**
     * Reads and validates the configuration.
     *
     * @param config the MicroProfile Config
     * @return the configuration
     * @throws LockConfigurationException listing every invalid key and value
     */
    public static BatonConfig read(Config config) {
        ConfigValues values = new ConfigValues(config);
        BatonConfig read = new BatonConfig(values);
        values.failOnProblems();
        return read;
    }

    /**
     * Reads only the interceptor priority, which is needed before the rest can be validated.
     *
     * @param config the MicroProfile Config
     * @return the priority, or the default when it is absent or not an integer (reported later)
     */
    public static int interceptorPriority(Config config) {
        return priority(config, INTERCEPTOR_PRIORITY, Synchronized.DEFAULT_PRIORITY);
    }

    /**
     * Reads only the {@code @Exclusive} interceptor's priority, which is needed before the rest can be validated.
     *
     * @param config the MicroProfile Config
     * @return the priority, or the default when it is absent or not an integer (reported later)
     */
    public static int exclusivePriority(Config config) {
        return priority(config, EXCLUSIVE_PRIORITY, Exclusive.DEFAULT_PRIORITY);
    }

    /**
     * Reads only {@value #CONFLICT_KEY}, for the JAX-RS mapper, which the JAX-RS runtime makes outside CDI; the
     * deployment validated it.
     *
     * @param config the application's MicroProfile Config
     * @return what the 409 answer says of the key; the default when unset or not valid (reported at deployment)
     */
    public static ConflictKey conflictKey(Config config) {
        return conflictKey(config.getOptionalValue(CONFLICT_KEY, String.class).map(String::trim), null);
    }

    private static int priority(Config config, String key, int fallback) {
        return config.getOptionalValue(key, String.class)
                .flatMap(ConfigValues::integer)
                .orElse(fallback);
    }

    /**
     * @return {@code baton.exclusive.hold}: the hold of the {@code @Exclusive} methods that set none, if configured
     */
    public OptionalLong exclusiveHoldMillis() {
        return exclusiveHoldMillis;
    }

    /**
     * @return {@code baton.exclusive.retention}: how long the planned-time claims of the {@code @Exclusive} methods
     *     that set no retention are kept, if configured
     */
    public OptionalLong exclusiveRetentionMillis() {
        return exclusiveRetentionMillis;
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

    /**
     * @return {@code baton.admin.force-release.role}: the roles of which the caller of {@code forceRelease} must
     *     have one; empty when any caller may (where force release is enabled)
     */
    public List<String> forceReleaseRoles() {
        return forceReleaseRoles;
    }

    /** @return {@code baton.log.keys}: how keys appear in Baton's log lines */
    public KeyFormat logKeys() {
        return logKeys;
    }

    /** @return {@code baton.http.conflict.key}: what the 409 answer says of the key */
    public ConflictKey conflictKey() {
        return conflictKey;
    }

    /** @return {@code baton.health.details}: whether a DOWN health answer carries the failure's message */
    public boolean healthDetails() {
        return healthDetails;
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
        return values.text(key);
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
        return values.keysStartingWith(prefix);
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

    private static long shutdownGrace(ConfigValues values) {
        Optional<String> raw = values.text(SHUTDOWN_GRACE);
        if (raw.isEmpty()) {
            return DEFAULT_SHUTDOWN_GRACE_MILLIS;
        }
        if (ZERO_DURATION.matcher(raw.get()).matches()) {
            return 0;
        }
        long grace = values.duration(SHUTDOWN_GRACE, DEFAULT_SHUTDOWN_GRACE_MILLIS);
        if (grace > MAX_SHUTDOWN_GRACE_MILLIS) {
            values.problem(SHUTDOWN_GRACE + ": '" + raw.get() + "' is too long: a shutdown waits at most "
                    + MAX_SHUTDOWN_GRACE_MILLIS / 60_000 + "m for the work under held locks");
            return DEFAULT_SHUTDOWN_GRACE_MILLIS;
        }
        return grace;
    }

    private static List<String> forceReleaseRoles(ConfigValues values) {
        Optional<String> raw = values.text(FORCE_RELEASE_ROLE);
        if (raw.isEmpty()) {
            return List.of();
        }
        List<String> roles =
                Arrays.stream(raw.get().split(",", -1)).map(String::trim).toList();
        if (roles.stream().anyMatch(role -> role.isEmpty() || role.chars().anyMatch(Character::isWhitespace))) {
            values.problem(FORCE_RELEASE_ROLE + ": '" + raw.get()
                    + "' is not a comma-separated list of role names (each not empty, without spaces)");
            return List.of();
        }
        return roles;
    }

    private static KeyFormat logKeys(ConfigValues values) {
        Optional<String> raw = values.text(LOG_KEYS);
        if (raw.isEmpty()) {
            return KeyFormat.PLAIN;
        }
        Optional<KeyFormat> format = KeyFormat.of(raw.get());
        if (format.isEmpty()) {
            values.problem(LOG_KEYS + ": '" + raw.get() + "' is not plain, hash or masked");
        }
        return format.orElse(KeyFormat.PLAIN);
    }

    /** @param problems where a value that is not valid is reported, or {@code null} to take the default silently */
    private static ConflictKey conflictKey(Optional<String> raw, ConfigValues problems) {
        Optional<String> value = raw.filter(s -> !s.isEmpty());
        if (value.isEmpty()) {
            return ConflictKey.KEY;
        }
        for (ConflictKey form : ConflictKey.values()) {
            if (form.value().equalsIgnoreCase(value.get())) {
                return form;
            }
        }
        if (problems != null) {
            problems.problem(CONFLICT_KEY + ": '" + value.get() + "' is not key, hash or none");
        }
        return ConflictKey.KEY;
    }

    private static MetricsApi metricsApi(ConfigValues values) {
        Optional<String> raw = values.text(METRICS_API);
        if (raw.isEmpty()) {
            return MetricsApi.AUTO;
        }
        for (MetricsApi api : MetricsApi.values()) {
            if (api.value().equalsIgnoreCase(raw.get())) {
                return api;
            }
        }
        values.problem(METRICS_API + ": '" + raw.get() + "' is not auto, opentelemetry or microprofile-metrics");
        return MetricsApi.AUTO;
    }
}
