package dev.baton.etcd.testing;

import dev.baton.etcd.EtcdLockStore;
import java.time.Duration;

/**
 * The tests' etcd: one real server ({@link EtcdServer}) started at first use and shared by every test class of the
 * JVM.
 */
public final class TestEtcd {

    /** The lease ttl of the tests' stores: short, so expiry tests do not wait for a production ttl. */
    public static final Duration LEASE_TTL = Duration.ofSeconds(3);

    private static EtcdServer server;

    private TestEtcd() {}

    /** @return the shared server, started at first use */
    public static synchronized EtcdServer server() {
        if (server == null) {
            server = EtcdServer.startCluster("single", 1).get(0);
        }
        return server;
    }

    /** @return the shared server's client URL */
    public static String endpoint() {
        return server().endpoint();
    }

    /**
     * A store on the shared server.
     *
     * @param root its root's name (below {@code /})
     * @return a new store instance
     */
    public static EtcdLockStore store(String root) {
        return EtcdLockStore.builder(endpoint())
                .root("/" + root)
                .leaseTtl(LEASE_TTL)
                .build();
    }
}
