package dev.baton.faults.db;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A private cluster of three etcd members, each in a process of its own on loopback ports, its data on disk. As a
 * {@link Server} it is the whole cluster: a restart kills and starts every member, a pause stops them all.
 */
public final class EtcdCluster extends MemberCluster<Etcd> {

    /**
     * Starts three fresh members and waits until each is healthy.
     *
     * @param dir the cluster's directory (one folder per member)
     */
    public EtcdCluster(Path dir) {
        super(members(dir, 3), "etcd cluster");
    }

    private static List<Etcd> members(Path dir, int size) {
        List<Etcd> members = new ArrayList<>();
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
        return members;
    }

    /**
     * @param toPorts the members' ports, or proxies' in front of them
     * @return the endpoints, comma-separated
     */
    public static String endpoints(List<Integer> toPorts) {
        return String.join(",", toPorts.stream().map(Etcd::endpoint).toList());
    }
}
