package dev.baton.impl.store.file;

import java.util.concurrent.TimeUnit;

/** Entering a {@link SharedFile}'s lock of this JVM with a deadline, without giving in to interrupts. */
final class CriticalSection {

    private CriticalSection() {}

    /**
     * @return whether this thread now holds {@code file.inThisJvm}; false if the deadline passed first
     */
    static boolean enterThisJvm(SharedFile file, long deadlineNanos) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return file.inThisJvm.tryLock(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true; // store calls are short; the caller sees its interrupt afterwards
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
