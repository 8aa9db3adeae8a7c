package dev.baton.docs.samples.stores;

import dev.baton.redis.RedisLockStore;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import java.time.Duration;

// tag::producer[]
@ApplicationScoped
public class RedisStoreProducer {

    @Produces
    @Named("reports") // the store of the named manager "reports" (baton.managers=reports)
    @ApplicationScoped
    LockStore reportsStore() {
        return RedisLockStore.builder("redis://127.0.0.1:6379")
                .keyPrefix("reports:") // instead of baton:
                .commandTimeout(Duration.ofSeconds(2))
                .build(); // connects at its first operation
    }

    void close(@Disposes @Named("reports") LockStore store) {
        store.close();
    }
}
// end::producer[]
