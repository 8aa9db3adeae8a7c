package dev.baton.faults.db;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Signals to processes, by pid, with {@code kill}. */
public final class Processes {

    private Processes() {}

    /**
     * Sends a signal.
     *
     * @param pid the process
     * @param signal e.g. {@code STOP}, {@code CONT}, {@code KILL}, {@code TERM}, {@code QUIT}
     * @return whether {@code kill} succeeded
     */
    public static boolean signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits for a process to be gone.
     *
     * @param process the process
     * @param millis how long at most
     * @return whether it is gone
     */
    public static boolean awaitGone(ProcessHandle process, long millis) {
        try {
            process.onExit().get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            return !process.isAlive();
        }
    }

    /**
     * Sleeps, keeping the interrupt.
     *
     * @param millis how long
     */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
