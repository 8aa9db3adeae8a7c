package dev.baton.faults.db;

import java.util.List;

/**
 * A {@link Cluster} of members of one kind: what a restart, a pause or a member's kill does is the same for every
 * kind; what differs (how the members are made and named) is the subclass's.
 *
 * @param <M> the members' kind
 */
abstract class MemberCluster<M extends Member> implements Cluster {

    private final List<M> members;
    private final String title;

    /**
     * Starts the members and waits until each answers.
     *
     * @param members the members, not started
     * @param title what the cluster is, for reports
     */
    MemberCluster(List<M> members, String title) {
        this.members = List.copyOf(members);
        this.title = title;
        start();
    }

    @Override
    public List<Integer> ports() {
        return members.stream().map(Member::port).toList();
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

    /** Launches every member that is not running, then waits until each answers (once in a quorum). */
    @Override
    public void start() {
        members.forEach(Member::launch);
        members.forEach(Member::awaitReady);
    }

    @Override
    public void pause(boolean paused) {
        members.forEach(m -> m.pause(paused));
    }

    @Override
    public String title() {
        return title + " of " + members.size();
    }

    @Override
    public void close() {
        members.forEach(Member::close);
    }
}
