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
 * without an answered keep-alive. On a loaded machine (load 5 on two cores) the sequences failed in two calls: a
 * lock just taken (token 2) was found lost by the next call, which took the key for another owner (token 4: the
 * store had deleted the lock), so the lease's grant and first put had evidently taken over 2 s. That is the store's
 * answer to a lease it cannot count on ({@link LeaseFaultsTest} checks it), not a contract deviation; the sequences
 * check the contract of a store whose lease holds.
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
