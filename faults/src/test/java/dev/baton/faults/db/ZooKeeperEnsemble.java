package dev.baton.faults.db;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private ensemble of three ZooKeeper 3.9 servers, each in a JVM of its own ({@code QuorumPeerMain}) on loopback
 * ports, its data on disk. As a {@link Server} it is the whole ensemble: a restart kills and starts every member, a
 * pause stops them all.
 */
public final class ZooKeeperEnsemble extends MemberCluster<ZooKeeper> {

    /**
     * Starts three fresh members and waits until each answers.
     *
     * @param dir the ensemble's directory (one folder per member)
     */
    public ZooKeeperEnsemble(Path dir) {
        super(members(dir, 3), "ZooKeeper ensemble");
    }

    private static List<ZooKeeper> members(Path dir, int size) {
        List<Integer> clientPorts = new ArrayList<>();
        List<String> servers = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            int client = ZooKeeper.freePort();
            clientPorts.add(client);
            servers.add("server." + i + "=127.0.0.1:" + ZooKeeper.freePort() + ":" + ZooKeeper.freePort());
        }
        List<ZooKeeper> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            members.add(new ZooKeeper(dir.resolve("member-" + (i + 1)), clientPorts.get(i), i + 1, servers));
        }
        return members;
    }

    /**
     * @param toPorts the members' ports, or proxies' in front of them
     * @return the connect string
     */
    public static String connect(List<Integer> toPorts) {
        return String.join(",", toPorts.stream().map(ZooKeeper::connect).toList());
    }
}
