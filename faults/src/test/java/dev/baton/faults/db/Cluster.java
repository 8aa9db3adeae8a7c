package dev.baton.faults.db;

import java.util.List;

/**
 * A store's server made of several members that replicate the locks by consensus (a ZooKeeper ensemble, an etcd
 * cluster): as a {@link Server}, the whole of it (a restart or a pause is of every member); one member at a time can
 * also be killed and started again, which the members' quorum survives.
 */
public interface Cluster extends Server {

    /** @return the members' client ports, each the same across restarts */
    List<Integer> ports();

    /** @return how many members */
    default int size() {
        return ports().size();
    }

    /**
     * Kills one member at once ({@code SIGKILL}): its clients are cut off and move to the others.
     *
     * @param member its index
     */
    void kill(int member);

    /**
     * Starts a killed member again on its data, and waits until it answers.
     *
     * @param member its index
     */
    void start(int member);
}
