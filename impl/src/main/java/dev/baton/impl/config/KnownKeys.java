package dev.baton.impl.config;

import dev.baton.spi.LockStoreFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every {@code baton.*} key some part of Baton reads, as each part declares it: {@link BatonConfig} its keys read
 * once and the settings every manager reads (below {@code baton.} and {@code baton.<manager>.}), each store's
 * factory its settings ({@link LockStoreFactory#settingNames}, below {@code baton.<store>.} and
 * {@code baton.<manager>.<store>.}). Finds the configured keys nothing reads: a misspelling, a manager not listed
 * in {@code baton.managers}, a setting a store does not have. A store that declares no settings has every key
 * below its prefix taken as read.
 *
 * <p>Only names that start with {@code baton.} are checked: MicroProfile Config lists environment variables as
 * they are ({@code BATON_TTL}) and maps them to keys only on lookup, so they cannot be told apart from other
 * variables. Names with a {@code /} are per-method overrides ({@link AnnotationOverrides}), whose class part may
 * start with {@code baton.}: not checked either. Nor are names below {@code baton.tck.}: the TCK's own settings,
 * which its runs set as system properties of the JVMs that also run the application.
 */
public final class KnownKeys {

    /** The TCK's own settings ({@code baton.tck.timeFactor}, …), not the application's. */
    private static final String TCK_PREFIX = BatonConfig.PREFIX + "tck.";

    /**
     * A configured key nothing reads.
     *
     * @param key the key
     * @param unlistedManager the manager the key is for, when it is a manager's setting and the manager is not
     *     listed in {@code baton.managers}
     * @param closest the known key closest to it, when one is close enough to be what was meant
     */
    public record Unknown(String key, Optional<String> unlistedManager, Optional<String> closest) {}

    private final Set<String> managers;
    /** Each store's declared settings; empty for a store that declares none (its keys are not checked). */
    private final Map<String, Optional<Set<String>>> stores;
    /** Every key known by name, sorted so that the closest of equally close keys is always the same. */
    private final Set<String> known = new TreeSet<>();

    private KnownKeys(Set<String> managers, Map<String, Optional<Set<String>>> stores) {
        this.managers = managers;
        this.stores = stores;
        known.addAll(BatonConfig.GLOBAL_KEYS);
        addManagerKeys("");
        managers.forEach(this::addManagerKeys);
    }

    /**
     * @param managers the named managers {@code baton.managers} lists (the default one's empty name is ignored)
     * @param factories the store factories by name
     * @return the known keys
     */
    public static KnownKeys of(Collection<String> managers, Map<String, LockStoreFactory> factories) {
        Map<String, Optional<Set<String>>> stores = new TreeMap<>();
        factories.forEach((name, factory) -> stores.put(name, factory.settingNames()));
        Set<String> named = new TreeSet<>(managers);
        named.remove("");
        return new KnownKeys(Set.copyOf(named), stores);
    }

    /**
     * @param keys the configured keys, e.g. MicroProfile Config's property names
     * @return those nothing reads, in the order given
     */
    public List<Unknown> unknown(Collection<String> keys) {
        List<Unknown> unknown = new ArrayList<>();
        for (String key : keys) {
            check(key).ifPresent(unknown::add);
        }
        return unknown;
    }

    /**
     * @param key a configured key
     * @return what is wrong with it, if nothing reads it
     */
    public Optional<Unknown> check(String key) {
        if (!key.startsWith(BatonConfig.PREFIX) || key.indexOf('/') >= 0 || key.startsWith(TCK_PREFIX)) {
            return Optional.empty();
        }
        String rest = key.substring(BatonConfig.PREFIX.length());
        if (BatonConfig.GLOBAL_KEYS.contains(key) || managerReads(rest)) {
            return Optional.empty();
        }
        int dot = rest.indexOf('.');
        if (dot > 0) {
            String manager = rest.substring(0, dot);
            boolean aManagersSetting = managerReads(rest.substring(dot + 1));
            if (aManagersSetting && managers.contains(manager)) {
                return Optional.empty();
            }
            if (aManagersSetting) {
                return Optional.of(new Unknown(key, Optional.of(manager), closest(key)));
            }
        }
        return Optional.of(new Unknown(key, Optional.empty(), closest(key)));
    }

    /** Whether a manager reads this setting (below {@code baton.} or {@code baton.<manager>.}). */
    private boolean managerReads(String setting) {
        if (BatonConfig.MANAGER_SETTINGS.contains(setting)) {
            return true;
        }
        int dot = setting.indexOf('.');
        Optional<Set<String>> declared = dot > 0 ? stores.get(setting.substring(0, dot)) : null;
        return declared != null
                && declared.map(names -> names.contains(setting.substring(dot + 1)))
                        .orElse(true);
    }

    private void addManagerKeys(String manager) {
        for (String setting : BatonConfig.MANAGER_SETTINGS) {
            known.add(BatonConfig.key(manager, setting));
        }
        stores.forEach((store, settings) -> settings.ifPresent(names -> {
            for (String name : names) {
                known.add(BatonConfig.key(manager, store + "." + name));
            }
        }));
    }

    /**
     * The known key closest to an unknown one by edit distance, when it is close enough to be a misspelling: at
     * most 3 edits, and at most a third of the key's length.
     */
    private Optional<String> closest(String key) {
        int limit = Math.min(3, key.length() / 3);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = EditDistance.between(key, candidate);
            if (distance <= limit && distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }
}
