package dev.baton.impl.config;

import static dev.baton.impl.config.BatonConfig.key;

import dev.baton.LockConfigurationException;
import dev.baton.spi.LockArguments;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the lock managers: {@code baton.managers} and, for the default manager and each one listed, the
 * {@linkplain BatonConfig#MANAGER_SETTINGS settings every manager reads}. A named manager inherits every setting it
 * does not set from the default manager, which inherits from the built-in defaults. A manager with a problem is
 * left out; the problem is reported.
 */
final class ManagerSettingsReader {

    private static final Pattern MANAGER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern STORE_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** The built-in stores and those of Baton's store modules, whose settings live below {@code baton.<store>.}. */
    private static final Set<String> STORES = Set.of("memory", "file", "jpa", "redis");

    /**
     * Names that are keys of their own below {@code baton.} and so cannot name a manager: every manager's setting,
     * the first part of every key read once, and the stores.
     */
    private static final Set<String> RESERVED = reserved();

    /** What the default manager inherits: the built-in defaults. */
    private static final ManagerSettings BUILT_IN = new ManagerSettings(
            "",
            Optional.empty(),
            ManagerSettings.DEFAULT_TTL_MILLIS,
            ManagerSettings.DEFAULT_TIMEOUT_MILLIS,
            "",
            0,
            false);

    private ManagerSettingsReader() {}

    private static Set<String> reserved() {
        Set<String> reserved = new HashSet<>(BatonConfig.MANAGER_SETTINGS);
        reserved.addAll(STORES);
        for (String key : BatonConfig.GLOBAL_KEYS) {
            reserved.add(key.substring(BatonConfig.PREFIX.length()).split("\\.")[0]);
        }
        return Set.copyOf(reserved);
    }

    /**
     * @param values the configuration, where the problems go
     * @return the managers without problems by name, the default one first under the empty name
     */
    static Map<String, ManagerSettings> read(ConfigValues values) {
        Map<String, ManagerSettings> managers = new LinkedHashMap<>();
        Optional<ManagerSettings> defaults = manager(values, "", BUILT_IN);
        defaults.ifPresent(settings -> managers.put("", settings));
        for (String name : names(values)) {
            // with a default manager that has problems, the named ones are still checked, over the built-in defaults
            manager(values, name, defaults.orElse(BUILT_IN)).ifPresent(settings -> managers.put(name, settings));
        }
        return Collections.unmodifiableMap(managers);
    }

    /** The valid names {@code baton.managers} lists, each once; the others are reported. */
    private static List<String> names(ConfigValues values) {
        List<String> names = new ArrayList<>();
        Optional<String> raw = values.raw(BatonConfig.MANAGERS);
        if (raw.isEmpty()) {
            return names;
        }
        for (String part : raw.get().split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (!MANAGER_NAME.matcher(name).matches()) {
                values.problem(BatonConfig.MANAGERS + ": '" + name
                        + "' is not a valid manager name (letters, digits, '_' and '-')");
            } else if (RESERVED.contains(name)) {
                values.problem(
                        BatonConfig.MANAGERS + ": '" + name + "' is reserved (it is a configuration key of its own)");
            } else if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    /** One manager's settings over its parent's, or empty if one of them has a problem. */
    private static Optional<ManagerSettings> manager(ConfigValues values, String name, ManagerSettings parent) {
        int before = values.problemCount();
        Optional<String> store = values.text(key(name, "store"));
        if (store.isPresent() && !STORE_NAME.matcher(store.get()).matches()) {
            values.problem(key(name, "store") + ": '" + store.get() + "' is not a store name");
        }
        if (store.isEmpty()) {
            store = parent.store();
        }
        long ttl = values.duration(key(name, "ttl"), parent.ttlMillis());
        long timeout = values.duration(key(name, "timeout"), parent.timeoutMillis());
        long renew = values.duration(key(name, "renew-interval"), parent.renewIntervalMillis());
        // An interval inherited from the default manager may be longer than this manager's own ttl: its locks
        // are then renewed at a third of their lease (ManagerSettings#renewIntervalMillis), as any shorter lease is.
        boolean ownRenew = values.text(key(name, "renew-interval")).isPresent();
        if (ownRenew && renew >= ttl) {
            values.problem(
                    key(name, "renew-interval") + ": " + renew + " ms must be shorter than the ttl (" + ttl + " ms)");
        }
        String prefix = values.raw(key(name, "prefix")).orElse(parent.prefix());
        checkPrefix(values, key(name, "prefix"), prefix);
        boolean interrupt = values.bool(key(name, "interrupt-on-loss"), parent.interruptOnLoss());
        PollPolicy poll = poll(values, name, parent.poll());
        int renewThreads = renewThreads(values, key(name, "renew-threads"), parent.renewThreads());
        if (values.problemCount() > before) {
            return Optional.empty();
        }
        return Optional.of(
                new ManagerSettings(name, store, ttl, timeout, prefix, renew, interrupt, poll, renewThreads));
    }

    /** Reports a prefix that leaves no room for keys, or that no store could keep. */
    private static void checkPrefix(ConfigValues values, String key, String prefix) {
        if (prefix.length() >= LockArguments.MAX_KEY_LENGTH) {
            values.problem(key + ": " + prefix.length() + " chars leaves no room for keys (at most "
                    + LockArguments.MAX_KEY_LENGTH + " chars with the prefix)");
        } else if (!prefix.isEmpty()) {
            try {
                // NUL is left to each store (some keep it); invalid UTF-16 no store can keep.
                LockArguments.requireValidKey(prefix, true);
            } catch (IllegalArgumentException e) {
                values.problem(key + ": '" + prefix + "' is not valid: "
                        + e.getMessage().replaceFirst("^lock key", "it"));
            }
        }
    }

    /** The manager's poll settings over its parent's. */
    private static PollPolicy poll(ConfigValues values, String name, PollPolicy parent) {
        String minKey = key(name, "poll-min-interval");
        String maxKey = key(name, "poll-max-interval");
        String jitterKey = key(name, "poll-jitter");
        int before = values.problemCount();
        OptionalLong min = values.duration(minKey);
        OptionalLong max = values.duration(maxKey);
        try {
            Optional<String> rawJitter = values.text(jitterKey);
            OptionalDouble jitter = rawJitter.isPresent()
                    ? OptionalDouble.of(PollPolicy.parseJitter(rawJitter.get(), jitterKey))
                    : OptionalDouble.empty();
            if (values.problemCount() > before) {
                return parent;
            }
            return parent.with(min, minKey, max, maxKey, jitter);
        } catch (LockConfigurationException e) {
            values.problem(e.getMessage());
            return parent;
        }
    }

    private static int renewThreads(ConfigValues values, String key, int fallback) {
        Optional<String> raw = values.text(key);
        if (raw.isEmpty()) {
            return fallback;
        }
        Optional<Integer> threads = ConfigValues.integer(raw.get());
        if (threads.isPresent() && threads.get() >= 1 && threads.get() <= ManagerSettings.MAX_RENEW_THREADS) {
            return threads.get();
        }
        values.problem(
                key + ": '" + raw.get() + "' is not a whole number from 1 to " + ManagerSettings.MAX_RENEW_THREADS);
        return fallback;
    }
}
