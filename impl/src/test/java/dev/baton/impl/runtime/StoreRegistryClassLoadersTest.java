package dev.baton.impl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.store.file.FileLockStoreFactory;
import dev.baton.impl.store.memory.MemoryLockStoreFactory;
import dev.baton.spi.LockStoreFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The store factories are found through Baton's own class loader, and through the thread's context class loader
 * only when that loader shares Baton's SPI. A server may leave another application's loader, or one of its own, as
 * a request thread's context loader (TomEE's JAX-RS layer does): its copies of the factories implement another
 * copy of {@link LockStoreFactory}, and {@code ServiceLoader} failed the lookup with "not a subtype".
 */
class StoreRegistryClassLoadersTest {

    @Test
    void aContextLoaderWithItsOwnCopyOfTheSpiIsNotAsked() throws Exception {
        try (URLClassLoader otherApplication = new URLClassLoader(
                new URL[] {location(LockStoreFactory.class), location(MemoryLockStoreFactory.class)},
                ClassLoader.getPlatformClassLoader())) {
            assertThat(otherApplication.loadClass(MemoryLockStoreFactory.class.getName()))
                    .as("the other application's copy of the memory store's factory")
                    .isNotEqualTo(MemoryLockStoreFactory.class);
            assertThat(StoreRegistry.sharesOurSpi(otherApplication)).isFalse();

            Map<String, LockStoreFactory> found = withContextLoader(otherApplication, StoreRegistry::factories);

            assertThat(found.get(MemoryLockStoreFactory.NAME)).isInstanceOf(MemoryLockStoreFactory.class);
            assertThat(found.get(FileLockStoreFactory.NAME)).isInstanceOf(FileLockStoreFactory.class);
            assertThat(found.values())
                    .allSatisfy(factory ->
                            assertThat(factory.getClass().getClassLoader()).isNotSameAs(otherApplication));
        }
    }

    @Test
    void aContextLoaderThatSharesTheSpiIsAsked() throws Exception {
        // A module's loader below Baton's (a web module of an EAR whose lib holds Baton): its stores count.
        try (URLClassLoader module = new URLClassLoader(new URL[0], StoreRegistry.class.getClassLoader())) {
            assertThat(StoreRegistry.sharesOurSpi(module)).isTrue();
            assertThat(withContextLoader(module, StoreRegistry::factories)).containsKey(MemoryLockStoreFactory.NAME);
        }
        assertThat(StoreRegistry.sharesOurSpi(null)).isFalse();
        assertThat(withContextLoader(null, StoreRegistry::factories)).containsKey(MemoryLockStoreFactory.NAME);
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    private static <T> T withContextLoader(ClassLoader loader, java.util.function.Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(before);
        }
    }
}
