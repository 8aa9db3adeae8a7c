package dev.baton.faults.db;

/**
 * A server that can also be one member of a {@link MemberCluster}: started in two steps, so that every member of a
 * cluster is launched before any is waited for (a member answers only once a quorum runs).
 */
interface Member extends Server {

    /** Starts the process if it is not running, without waiting for it. */
    void launch();

    /** Waits until the member answers, 60 s at most. */
    void awaitReady();

    @Override
    default void start() {
        launch();
        awaitReady();
    }
}
