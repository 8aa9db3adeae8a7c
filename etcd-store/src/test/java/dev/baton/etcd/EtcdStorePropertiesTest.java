package dev.baton.etcd;

import dev.baton.etcd.testing.TestEtcd;
import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;
import java.time.Duration;

/**
 * The TCK's store properties on the etcd server of {@link EtcdContractTest}: each sequence on a new store instance,
 * with a lease of its own, on the same server (each sequence with keys of its own). The store keeps real time, so
 * every lock outlives its sequence (the contract suite checks expiry).
 *
 * <p>Its lease is 30 s, not the contract's 3 s: a store counts its locks lost once two thirds of its lease pass
 * without an answered keep-alive, and on a loaded machine the grant and first put of a new instance took over 2 s,
 * so the next call of the sequence found the lock just taken lost and took the key for another owner (a lost lock,
 * as the store must answer it; {@link LeaseFaultsTest} checks that path). The sequences check the contract of a
 * store whose lease holds.
 */
class EtcdStorePropertiesTest extends StoreProperties {

    @Override
    protected LockStore createStore() {
        return EtcdLockStore.builder(TestEtcd.endpoint())
                .root("/properties")
                .leaseTtl(Duration.ofSeconds(30))
                .build();
    }
}
