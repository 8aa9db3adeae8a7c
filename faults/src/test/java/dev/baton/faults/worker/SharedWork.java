package dev.baton.faults.worker;

import static dev.baton.faults.history.Vocabulary.PERMIT;
import static dev.baton.faults.history.Vocabulary.PERMITS;
import static dev.baton.faults.history.Vocabulary.PERMIT_KEY;
import static dev.baton.faults.history.Vocabulary.READ;
import static dev.baton.faults.history.Vocabulary.RW_KEY;
import static dev.baton.faults.history.Vocabulary.WRITE;

import dev.baton.LockOptions;
import dev.baton.LockType;
import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.inject.Inject;

/**
 * The shared sections behind {@code @Synchronized} (shared mode): one of the {@value
 * dev.baton.faults.history.Vocabulary#PERMITS} permits of {@value dev.baton.faults.history.Vocabulary#PERMIT_KEY},
 * and {@value dev.baton.faults.history.Vocabulary#RW_KEY} for reading or for writing, as an application declares
 * them. {@link #options} says the same for {@link Locks#callWithLock(String, LockOptions, Locks.LockedWork)}.
 */
@ApplicationScoped
public class SharedWork {

    @Inject
    Locks locks;

    /**
     * Holds one of the permits of the permit key.
     *
     * @param requested when the caller asked for it (nano)
     */
    @Synchronized(value = PERMIT_KEY, permits = PERMITS)
    public void permit(long requested) {
        hold(PERMIT_KEY, PERMIT, requested);
    }

    /**
     * Holds the read/write key for reading, beside other readers.
     *
     * @param requested when the caller asked for it (nano)
     */
    @Synchronized(value = RW_KEY, type = LockType.READ)
    public void read(long requested) {
        hold(RW_KEY, READ, requested);
    }

    /**
     * Holds the read/write key for writing, alone.
     *
     * @param requested when the caller asked for it (nano)
     */
    @Synchronized(RW_KEY) // LockType.WRITE, the default
    public void write(long requested) {
        hold(RW_KEY, WRITE, requested);
    }

    private void hold(String key, String mode, long requested) {
        Worker.section()
                .runShared(
                        locks.current()
                                .orElseThrow(() ->
                                        new IllegalStateException("no current lock inside a @Synchronized method")),
                        key,
                        mode,
                        requested,
                        "sync");
    }

    /**
     * The options of a shared section taken through {@code Locks}, the same as the annotations above.
     *
     * @param mode {@value dev.baton.faults.history.Vocabulary#PERMIT}, {@value dev.baton.faults.history.Vocabulary#READ}
     *     or {@value dev.baton.faults.history.Vocabulary#WRITE}
     * @return the options
     * @throws IllegalArgumentException for another mode
     */
    static LockOptions options(String mode) {
        return switch (mode) {
            case PERMIT -> LockOptions.defaults().withPermits(PERMITS);
            case READ -> LockOptions.defaults().withType(LockType.READ);
            case WRITE -> LockOptions.defaults(); // a writer is a plain lock
            default ->
                throw new IllegalArgumentException(
                        "unknown shared-mode section '" + mode + "': expected permit, read or write");
        };
    }

    /**
     * Leaves {@link SharedWork} out of the application when the shared mode is off: a {@code @Synchronized} method
     * that asks for permits or a read lock fails the start of an application whose store keeps no shared leases.
     */
    static final class LeftOut implements Extension {

        void leaveOut(@Observes ProcessAnnotatedType<SharedWork> type) {
            type.veto();
        }
    }
}
