package dev.baton.bench;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The etcd baseline: a jetcd client and a lease of its own; acquire is a transaction that puts the key bound to the
 * lease only if it does not exist, release one that deletes it only if its value is the owner. The store's calls
 * are the same transactions, comparing the key's revision instead of its value, and keep a ttl and a grace besides.
 */
final class RawEtcd implements RawClient {

    private final Client client;
    private final long lease;

    private RawEtcd(Client client, long lease) {
        this.client = client;
        this.lease = lease;
    }

    static RawEtcd open(String endpoint) {
        Client client = Client.builder().endpoints(endpoint).build();
        try {
            long lease =
                    client.getLeaseClient().grant(60).get(30, TimeUnit.SECONDS).getID();
            client.getLeaseClient().keepAlive(lease, new io.grpc.stub.StreamObserver<>() {
                @Override
                public void onNext(io.etcd.jetcd.lease.LeaseKeepAliveResponse value) {}

                @Override
                public void onError(Throwable t) {}

                @Override
                public void onCompleted() {}
            });
            return new RawEtcd(client, lease);
        } catch (Exception e) {
            client.close();
            throw new IllegalStateException("the raw etcd client did not get a lease from " + endpoint, e);
        }
    }

    /** @return the client, for the notified baseline */
    Client client() {
        return client;
    }

    static ByteSequence key(String key) {
        return ByteSequence.from("/bench-raw/" + key, StandardCharsets.UTF_8);
    }

    @Override
    public boolean acquire(String key, String owner, long ttlMillis) {
        ByteSequence k = key(key);
        return commit(
                new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0)),
                Op.put(
                        k,
                        ByteSequence.from(owner, StandardCharsets.US_ASCII),
                        PutOption.builder().withLeaseId(lease).build()));
    }

    @Override
    public boolean release(String key, String owner) {
        ByteSequence k = key(key);
        return commit(
                new Cmp(k, Cmp.Op.EQUAL, CmpTarget.value(ByteSequence.from(owner, StandardCharsets.US_ASCII))),
                Op.delete(k, DeleteOption.DEFAULT));
    }

    /** One transaction: {@code then} if {@code condition} holds; whether it did. */
    private boolean commit(Cmp condition, Op then) {
        try {
            return client.getKVClient()
                    .txn()
                    .If(condition)
                    .Then(then)
                    .commit()
                    .get(10, TimeUnit.SECONDS)
                    .isSucceeded();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            client.getLeaseClient().revoke(lease).get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // it expires
        }
        client.close();
    }
}
