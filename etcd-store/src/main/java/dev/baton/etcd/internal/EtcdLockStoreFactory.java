package dev.baton.etcd.internal;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.etcd.EtcdLockStore;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code baton.store=etcd}. Settings (below {@code baton.etcd.}, or {@code baton.<manager>.etcd.}):
 * <ul>
 * <li>{@code endpoints} (required): the cluster's client URLs, comma-separated ({@code http://host:2379,...});</li>
 * <li>{@code root} (default {@code /baton}): the prefix below which the store keeps its keys;</li>
 * <li>{@code lease-ttl} (default {@code 30s}, whole seconds): the ttl of the instance's lease;</li>
 * <li>{@code operation-timeout} (default {@code 5s}): how long a call waits for the server when the caller gives no
 * bound, and at most when it does.</li>
 * </ul>
 * Durations: {@code 500ms}, {@code 5s}, {@code 1m}, ISO-8601 ({@code PT5S}) or plain milliseconds. jetcd's classes
 * are touched only after {@link #validate} has found them, so a missing client is reported as
 * {@link LockStoreDriverNotFoundException}.
 */
public final class EtcdLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "etcd";

    static final String ENDPOINTS = "endpoints";
    static final String ROOT = "root";
    static final String LEASE_TTL = "lease-ttl";
    static final String OPERATION_TIMEOUT = "operation-timeout";

    /** What to add when the client is missing. */
    static final String CLIENT = "the etcd client jetcd (Maven artifact io.etcd:jetcd-core, 0.8 or later;"
            + " baton-etcd-store brings it unless it was excluded)";

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");
    private static final Map<String, Long> UNIT_MILLIS = Map.of("ms", 1L, "s", 1_000L, "m", 60_000L, "h", 3_600_000L);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Set<String>> settingNames() {
        return Optional.of(Set.of(ENDPOINTS, ROOT, LEASE_TTL, OPERATION_TIMEOUT));
    }

    @Override
    public void validate(StoreContext context) {
        requireClient();
        builder(context);
    }

    @Override
    public LockStore create(StoreContext context) {
        requireClient();
        return builder(context).build();
    }

    private static void requireClient() {
        try {
            Class.forName("io.etcd.jetcd.Client", false, EtcdLockStoreFactory.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LockStoreDriverNotFoundException(NAME, CLIENT, e);
        }
    }

    /** The builder with every setting read and checked: a bad one fails the deployment, naming its key. */
    private static EtcdLockStore.Builder builder(StoreContext context) {
        String endpoints = context.setting(ENDPOINTS)
                .filter(e -> !e.isBlank())
                .orElseThrow(() -> new LockConfigurationException("The etcd lock store needs its cluster: set "
                        + context.settingKey(ENDPOINTS) + " (http://host:2379[,http://host:2379...])"));
        EtcdLockStore.Builder builder;
        try {
            builder = EtcdLockStore.builder(endpoints.split(","));
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException(context.settingKey(ENDPOINTS) + ": " + e.getMessage(), e);
        }
        Optional<String> root = context.setting(ROOT);
        if (root.isPresent()) {
            try {
                builder.root(root.get().strip());
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(context.settingKey(ROOT) + ": " + e.getMessage(), e);
            }
        }
        Optional<Duration> ttl = duration(context, LEASE_TTL);
        if (ttl.isPresent()) {
            try {
                builder.leaseTtl(ttl.get());
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(context.settingKey(LEASE_TTL) + ": " + e.getMessage(), e);
            }
        }
        duration(context, OPERATION_TIMEOUT).ifPresent(builder::operationTimeout);
        return builder;
    }

    private static Optional<Duration> duration(StoreContext context, String name) {
        Optional<String> text = context.setting(name);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String value = text.get().strip();
        Duration duration;
        try {
            Matcher m = SHORT_DURATION.matcher(value);
            duration = m.matches()
                    ? Duration.ofMillis(Math.multiplyExact(
                            Long.parseLong(m.group(1)), UNIT_MILLIS.get(m.group(2) == null ? "ms" : m.group(2))))
                    : Duration.parse(value);
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            throw new LockConfigurationException(
                    context.settingKey(name) + "='" + value
                            + "' is not a duration: use e.g. 500ms, 5s, 1m, PT5S or plain milliseconds",
                    e);
        }
        if (duration.toMillis() < 1 || duration.toMillis() > LockArguments.MAX_DURATION_MILLIS) {
            throw new LockConfigurationException(
                    context.settingKey(name) + "='" + value + "' must be from 1 ms to 365 days");
        }
        return Optional.of(duration);
    }
}
