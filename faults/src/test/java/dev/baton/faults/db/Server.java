package dev.baton.faults.db;

/** A server the suite starts itself and the nemesis stops, restarts or pauses: a database, Redis. */
public interface Server extends AutoCloseable {

    /** @return the port it listens on, the same across restarts */
    int port();

    /**
     * Stops the server.
     *
     * @param immediate as a crash would (no checkpoint, connections cut) rather than a clean shutdown
     */
    void stop(boolean immediate);

    /** Starts the server again on the same port, and waits until it accepts connections. */
    void start();

    /**
     * Pauses ({@code SIGSTOP}) or resumes ({@code SIGCONT}) the server's process.
     *
     * @param paused which
     */
    void pause(boolean paused);

    /** @return the server's name in reports */
    String title();

    @Override
    void close();
}
