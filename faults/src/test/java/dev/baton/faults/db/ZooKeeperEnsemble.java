package dev.baton.faults.db;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private ensemble of three ZooKeeper 3.9 servers, each in a JVM of its own ({@code QuorumPeerMain}) on loopback
 * ports, its data on disk. As a {@link Server} it is the whole ensemble: a restart kills and starts every member, a
 * pause stops them all.
 */
public final class ZooKeeperEnsemble implements Cluster {

    private final List<ZooKeeper> members = new ArrayList<>();

    /**
     * Starts three fresh members and waits until each answers.
     *
     * @param dir the ensemble's directory (one folder per member)
     */
    public ZooKeeperEnsemble(Path dir) {
        int size = 3;
        List<Integer> clientPorts = new ArrayList<>();
        List<String> servers = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            int client = ZooKeeper.freePort();
            clientPorts.add(client);
            servers.add("server." + i + "=127.0.0.1:" + ZooKeeper.freePort() + ":" + ZooKeeper.freePort());
        }
        for (int i = 0; i < size; i++) {
            members.add(new ZooKeeper(dir.resolve("member-" + (i + 1)), clientPorts.get(i), i + 1, servers));
        }
        start();
    }

    @Override
    public List<Integer> ports() {
        return members.stream().map(ZooKeeper::port).toList();
    }

    /**
     * @param toPorts the members' ports, or proxies' in front of them
     * @return the connect string
     */
    public static String connect(List<Integer> toPorts) {
        return String.join(",", toPorts.stream().map(ZooKeeper::connect).toList());
    }

    @Override
    public int port() {
        return members.get(0).port();
    }

    @Override
    public void kill(int member) {
        members.get(member).stop(true);
    }

    @Override
    public void start(int member) {
        members.get(member).start();
    }

    @Override
    public void stop(boolean immediate) {
        members.forEach(m -> m.stop(immediate));
    }

    /** Starts every member that is not running, then waits until each answers (a member answers once in a quorum). */
    @Override
    public void start() {
        members.forEach(ZooKeeper::launch);
        members.forEach(ZooKeeper::awaitAnswer);
    }

    @Override
    public void pause(boolean paused) {
        members.forEach(m -> m.pause(paused));
    }

    @Override
    public String title() {
        return "ZooKeeper ensemble of " + members.size();
    }

    @Override
    public void close() {
        members.forEach(ZooKeeper::close);
    }
}
