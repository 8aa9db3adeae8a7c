package dev.baton.docs.samples.stores;

import dev.baton.jpa.JpaLockStore;
import dev.baton.jpa.SchemaAction;
import dev.baton.spi.LockStore;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import javax.sql.DataSource;

// tag::producer[]
@ApplicationScoped
public class LockStoreProducer {

    @Resource(lookup = "jdbc/orders")
    DataSource dataSource;

    @Produces
    @ApplicationScoped
    LockStore lockStore() { // no qualifier: the default manager's store (leave baton.store unset)
        return JpaLockStore.builder(dataSource)
                .schemaAction(SchemaAction.VALIDATE)
                .build();
    }

    void close(@Disposes LockStore store) { // CDI owns a produced store: Baton never closes it
        store.close();
    }
}
// end::producer[]
