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
 * <p>Its lease is 30 s, not the contract's 3 s. On a loaded machine (load 5 on two cores) the sequences first failed in
 * two calls: a lock just taken (token 2) was found lost by the next call, which took the key for another owner (token
 * 4: the store had deleted the lock). The lease's grant and first put had taken longer than its grace, and the store
 * gave a lock it could not count on: a fault, now fixed ({@link LeaseFaultsTest#noLockIsGivenOnALeaseWhoseGraceRanOut}).
 * With the fix such an acquisition takes a new lease, or fails when three leases in a row are overdue: the store's
 * answer to a machine too slow for its lease, which the model, knowing no faults, cannot tell from a broken store. The
 * longer lease keeps the sequences on the contract.
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
