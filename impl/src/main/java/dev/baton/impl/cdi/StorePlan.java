package dev.baton.impl.cdi;

import dev.baton.impl.config.BatonConfig;
import dev.baton.spi.LockStore;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Named;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where each lock manager gets its store, decided once at deployment (nothing connects here). Baton never
 * falls back to the in-memory store on its own.
 *
 * <ul>
 * <li>The default manager: the store of {@code baton.store}; else the application's {@code LockStore} bean
 * that has the {@code @Default} qualifier and is not named after a declared manager; else, only when
 * nothing is configured and the application has no {@code LockStore} bean at all, the memory store (with a
 * warning at start: locks are local to this JVM).</li>
 * <li>A named manager: the store of its own {@code baton.<name>.store}; else the {@code LockStore} bean
 * {@code @Named("<name>")}; else the default manager's store itself, the same instance.</li>
 * </ul>
 *
 * Two beans where one is wanted, a manager with nowhere to get a store, or store settings a manager would
 * silently ignore, are deployment problems. One case is not: when every {@code LockStore} bean is named after
 * another manager, the default manager has no store, and using it fails (at deployment for a
 * {@code @Synchronized} method, at the call for the programmatic API).
 */
final class StorePlan {

    /** Where a store comes from. Managers with equal sources share one store instance. */
    sealed interface Source permits Configured, ApplicationBean, UnconfiguredMemory, None {}

    /**
     * A store factory's store ({@code baton.store}, {@code baton.<name>.store}).
     *
     * @param manager the manager whose store settings it reads ({@code baton.<manager>.<store>.*})
     * @param store the store name
     */
    record Configured(String manager, String store) implements Source {}

    /**
     * An application's {@code LockStore} bean; CDI owns its lifecycle.
     *
     * @param bean the bean
     */
    record ApplicationBean(Bean<?> bean) implements Source {}

    /** Nothing configured and no {@code LockStore} bean: the memory store, with a warning. */
    record UnconfiguredMemory() implements Source {}

    /**
     * No store: using the manager fails.
     *
     * @param reason what was looked for, for the exception
     */
    record None(String reason) implements Source {}

    private final Map<String, Source> sources;

    private StorePlan(Map<String, Source> sources) {
        this.sources = sources;
    }

    /**
     * @param manager a declared manager, empty for the default
     * @return where its store comes from
     */
    Source source(String manager) {
        Source source = sources.get(manager);
        if (source == null) {
            throw new IllegalArgumentException(
                    "Lock manager '" + manager + "' is not declared (list it in baton.managers)");
        }
        return source;
    }

    /**
     * @param manager a named manager
     * @return whether it uses the default manager's store
     */
    boolean sharesDefault(String manager) {
        return !manager.isEmpty() && source(manager) == sources.get("");
    }

    /**
     * Decides every manager's store.
     *
     * @param config the configuration
     * @param beans the application's beans
     * @param problems where the deployment problems go
     * @return the plan (sources with problems are {@link None})
     */
    static StorePlan resolve(BatonConfig config, CdiBeanLookup beans, List<String> problems) {
        Set<String> named = new LinkedHashSet<>(config.managers().keySet());
        named.remove("");
        Set<Bean<?>> stores = beans.beansOfType(LockStore.class);
        Map<String, Source> sources = new LinkedHashMap<>();
        Source defaultSource = defaultSource(config, beans, stores, named, problems);
        sources.put("", defaultSource);
        for (String name : named) {
            sources.put(name, namedSource(name, config, beans, stores, defaultSource, problems));
        }
        return new StorePlan(Collections.unmodifiableMap(sources));
    }

    private static Source defaultSource(
            BatonConfig config, CdiBeanLookup beans, Set<Bean<?>> stores, Set<String> managers, List<String> problems) {
        if (config.ownStore("").isPresent()) {
            return new Configured("", config.ownStore("").get());
        }
        Set<Bean<?>> candidates = new LinkedHashSet<>();
        for (Bean<?> bean : stores) {
            if (bean.getQualifiers().contains(Default.Literal.INSTANCE) && !managers.contains(bean.getName())) {
                candidates.add(bean);
            }
        }
        if (!candidates.isEmpty()) {
            Bean<?> chosen = beans.resolve(candidates);
            if (chosen == null) {
                String problem = "The default lock manager has " + candidates.size()
                        + " LockStore beans to choose from: "
                        + describe(candidates) + "; keep one, qualify the others (@Named(\"<manager>\") for a named "
                        + "manager), or set baton.store";
                problems.add(problem);
                return new None(problem);
            }
            return new ApplicationBean(chosen);
        }
        if (stores.isEmpty()) {
            return new UnconfiguredMemory();
        }
        boolean allNamedAfterManagers = stores.stream().allMatch(bean -> managers.contains(bean.getName()));
        if (allNamedAfterManagers) {
            // Not a problem by itself: an application may use only named managers. Using this one fails.
            return new None("The default lock manager has no store: baton.store is not set, and every LockStore bean "
                    + "of the application is named after another manager (" + describe(stores)
                    + "); set baton.store, or "
                    + "produce a LockStore bean without @Named for the default manager");
        }
        String problem = "The default lock manager has no store: baton.store is not set, and no LockStore bean of the "
                + "application has the @Default qualifier without being named after a declared manager (found: "
                + describe(stores) + "); set baton.store, or produce a LockStore bean with no qualifier but "
                + "(at most) @Named with a name that is not a manager's";
        problems.add(problem);
        return new None(problem);
    }

    private static Source namedSource(
            String name,
            BatonConfig config,
            CdiBeanLookup beans,
            Set<Bean<?>> stores,
            Source defaultSource,
            List<String> problems) {
        if (config.ownStore(name).isPresent()) {
            return new Configured(name, config.ownStore(name).get());
        }
        Set<Bean<?>> candidates = new LinkedHashSet<>();
        for (Bean<?> bean : stores) {
            if (name.equals(bean.getName())) {
                candidates.add(bean);
            }
        }
        if (!candidates.isEmpty()) {
            Bean<?> chosen = beans.resolve(candidates);
            if (chosen == null) {
                String problem = "Lock manager '" + name + "' has " + candidates.size() + " LockStore beans @Named(\""
                        + name + "\"): " + describe(candidates) + "; keep one, or set "
                        + BatonConfig.key(name, "store");
                problems.add(problem);
                return new None(problem);
            }
            return new ApplicationBean(chosen);
        }
        if (defaultSource instanceof None none) {
            String problem = "Lock manager '" + name + "' has no store: " + BatonConfig.key(name, "store")
                    + " is not set, there is no LockStore bean @Named(\"" + name
                    + "\"), and the default manager, whose "
                    + "store it would share, has none either (" + none.reason() + ")";
            problems.add(problem);
            return new None(problem);
        }
        if (defaultSource instanceof Configured shared) {
            // Settings of this manager for the shared store would be silently ignored: the store reads the default's.
            List<String> ignored = config.keysStartingWith(BatonConfig.key(name, shared.store() + "."));
            if (!ignored.isEmpty()) {
                problems.add(String.join(", ", ignored) + (ignored.size() == 1 ? " is" : " are")
                        + " set, but lock manager '"
                        + name + "' has no " + BatonConfig.key(name, "store") + " and shares the default manager's '"
                        + shared.store() + "' store, which reads " + BatonConfig.key("", shared.store() + ".*")
                        + "; set "
                        + BatonConfig.key(name, "store") + "=" + shared.store()
                        + " to give it a store of its own with these "
                        + "settings");
            }
        }
        return defaultSource;
    }

    /** E.g. {@code com.acme.Stores [@Named("reports")], com.acme.Other [@Default]} (a producer: its declaring class). */
    static String describe(Set<Bean<?>> beans) {
        List<String> described = new ArrayList<>();
        for (Bean<?> bean : beans) {
            described.add(bean.getBeanClass().getName() + " "
                    + bean.getQualifiers().stream()
                            .filter(q -> !(q instanceof Any))
                            .map(q -> q instanceof Named
                                    ? "@Named(\"" + bean.getName() + "\")"
                                    : "@" + q.annotationType().getSimpleName())
                            .sorted()
                            .collect(Collectors.joining(" ", "[", "]")));
        }
        return String.join(", ", described);
    }

    @Override
    public String toString() {
        return "StorePlan" + sources;
    }
}
