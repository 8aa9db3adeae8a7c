package com.example.lockstore;

import dev.baton.LockConfigurationException;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

// tag::factory[]
/**
 * {@code baton.store=map}: a {@link MapLockStore} on the backend named by the setting {@code backend}
 * ({@code baton.map.backend}, or {@code baton.<manager>.map.backend}; default {@code default}). The stores of
 * one JVM that name the same backend share its locks. Listed in
 * {@code META-INF/services/dev.baton.spi.LockStoreFactory}, so that Baton finds it.
 */
public final class MapLockStoreFactory implements LockStoreFactory {

    /** The name {@code baton.store} selects. */
    public static final String NAME = "map";

    /** The one setting: which backend the store works on. */
    static final String BACKEND = "backend";

    private static final Pattern BACKEND_NAME = Pattern.compile("[a-z0-9-]{1,32}");
    private static final ConcurrentMap<String, MapLockStore.Backend> BACKENDS = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    /** Every setting the factory reads: Baton warns at deployment about any other key below baton.map. */
    @Override
    public Optional<Set<String>> settingNames() {
        return Optional.of(Set.of(BACKEND));
    }

    /** Runs when the application deploys: a wrong setting fails the deployment, naming the key and value. */
    @Override
    public void validate(StoreContext context) {
        backendName(context);
    }

    /** Creates the store without connecting: a store connects at its first operation. */
    @Override
    public LockStore create(StoreContext context) {
        return new MapLockStore(BACKENDS.computeIfAbsent(backendName(context), name -> new MapLockStore.Backend()));
    }

    private static String backendName(StoreContext context) {
        String name = context.setting(BACKEND).map(String::strip).orElse("default");
        if (!BACKEND_NAME.matcher(name).matches()) {
            throw new LockConfigurationException(
                    context.settingKey(BACKEND) + "='" + name + "' must be 1 to 32 of a-z, 0-9 and '-'");
        }
        return name;
    }
}
// end::factory[]
