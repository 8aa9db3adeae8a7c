package dev.baton.etcd.testing;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.maintenance.StatusResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A cluster of three real etcd members ({@link EtcdServer}), each in a process of its own. */
public final class TestCluster implements AutoCloseable {

    private final List<EtcdServer> members;

    /** Starts three members and waits until each accepts connections. */
    public TestCluster() {
        members = EtcdServer.startCluster("cluster", 3);
    }

    /** @return the client URLs of all three */
    public String[] endpoints() {
        return members.stream().map(EtcdServer::endpoint).toArray(String[]::new);
    }

    /**
     * Kills the leader (SIGKILL: its connections are cut, the others elect a new one).
     *
     * @return the killed member
     */
    public EtcdServer killLeader() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - deadline < 0) {
            for (EtcdServer member : members) {
                try (Client client =
                        Client.builder().endpoints(member.endpoint()).build()) {
                    StatusResponse status = client.getMaintenanceClient()
                            .statusMember(member.endpoint())
                            .get(2, TimeUnit.SECONDS);
                    if (status.getLeader() != 0
                            && status.getLeader() == status.getHeader().getMemberId()) {
                        member.kill();
                        return member;
                    }
                } catch (Exception e) {
                    // not up, or not answering: ask the next
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the cluster has had no leader for 30 s");
    }

    @Override
    public void close() {
        members.forEach(EtcdServer::close);
    }
}
