package dev.baton.faults.db;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private cluster of three etcd members, each in a process of its own on loopback ports, its data on disk. As a
 * {@link Server} it is the whole cluster: a restart kills and starts every member, a pause stops them all.
 */
public final class EtcdCluster implements Cluster {

    private final List<Etcd> members = new ArrayList<>();

    /**
     * Starts three fresh members and waits until each is healthy.
     *
     * @param dir the cluster's directory (one folder per member)
     */
    public EtcdCluster(Path dir) {
        int size = 3;
        List<int[]> ports = new ArrayList<>();
        StringBuilder initial = new StringBuilder();
        for (int i = 0; i < size; i++) {
            int[] p = {Etcd.freePort(), Etcd.freePort()};
            ports.add(p);
            initial.append(i == 0 ? "" : ",")
                    .append("member")
                    .append(i)
                    .append("=http://127.0.0.1:")
                    .append(p[1]);
        }
        for (int i = 0; i < size; i++) {
            members.add(new Etcd(
                    dir.resolve("member-" + i), "member" + i, ports.get(i)[0], ports.get(i)[1], initial.toString()));
        }
        start();
    }

    @Override
    public List<Integer> ports() {
        return members.stream().map(Etcd::port).toList();
    }

    /**
     * @param toPorts the members' ports, or proxies' in front of them
     * @return the endpoints, comma-separated
     */
    public static String endpoints(List<Integer> toPorts) {
        return String.join(",", toPorts.stream().map(Etcd::endpoint).toList());
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

    /** Starts every member that is not running, then waits until each is healthy (it has a leader). */
    @Override
    public void start() {
        members.forEach(Etcd::launch);
        members.forEach(Etcd::awaitHealthy);
    }

    @Override
    public void pause(boolean paused) {
        members.forEach(m -> m.pause(paused));
    }

    @Override
    public String title() {
        return "etcd cluster of " + members.size();
    }

    @Override
    public void close() {
        members.forEach(Etcd::close);
    }
}
