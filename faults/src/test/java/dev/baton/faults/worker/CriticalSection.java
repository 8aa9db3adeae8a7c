package dev.baton.faults.worker;

import static dev.baton.faults.history.Vocabulary.COUNTER;
import static dev.baton.faults.history.Vocabulary.ENTER;
import static dev.baton.faults.history.Vocabulary.EXIT;
import static dev.baton.faults.history.Vocabulary.FENCED;
import static dev.baton.faults.history.Vocabulary.LOST;

import dev.baton.Leadership;
import dev.baton.Lock;
import dev.baton.faults.history.HistoryWriter;
import dev.baton.faults.history.Vocabulary;
import dev.baton.jpa.FencedWrites;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * What a worker does while it holds a lock, each step recorded as it happens: an unfenced
 * read-modify-write of a counter (read, then write what was read plus one) around a protected write (in the
 * worker's own transaction, which then works a little longer before it commits). The protected write goes
 * through the JPA store's {@code FencedWrites} where the store has it (table mode), else the classic way: a
 * token column of the application's own row, written only with a greater token. The worker's own database
 * failures are recorded, never thrown: whatever escapes a section comes from Baton.
 */
final class CriticalSection {

    private static final String FENCED_UPDATE =
            "UPDATE fenced SET n = n + 1, last_token = ?1, writer_pid = ?2 WHERE k = ?3 AND {fence}";
    /** The fence column pattern of the JPA store's README, for stores without {@code FencedWrites}. */
    private static final String TOKEN_COLUMN_UPDATE =
            "UPDATE fenced SET n = n + 1, last_token = ?1, writer_pid = ?2 WHERE k = ?3 AND last_token < ?1";
    /**
     * The same for a leader, whose term writes many times with one token: its own earlier writes must not
     * refuse it, a later term's must.
     */
    private static final String TERM_TOKEN_COLUMN_UPDATE =
            "UPDATE fenced SET n = n + 1, last_token = ?1, writer_pid = ?2 WHERE k = ?3 AND last_token <= ?1";

    /**
     * How long a shared-mode section holds its key: long enough that the four workers' permit threads often want
     * more than the three permits at once, and writers wait for readers; a few sections a second per thread, so
     * that the shared mode takes little of the machine from the critical sections.
     */
    private static final long SHARED_HOLD_MIN_MILLIS = 100;

    private static final long SHARED_HOLD_MAX_MILLIS = 300;

    private final HistoryWriter history;
    private final EntityManagerFactory factory;
    private final long pid = ProcessHandle.current().pid();
    private final long pauseMillis;
    private final boolean useFencedWrites;
    private volatile FencedWrites fenced;
    /** Held for the whole of a leader action: a revocation waits on it before Baton releases the lock. */
    private final ReentrantLock acting = new ReentrantLock();
    /** The current term's token and when it was granted (nano): the "request" of its actions. */
    private volatile long[] grant = {Long.MIN_VALUE, 0};

    CriticalSection(HistoryWriter history, EntityManagerFactory factory, long pauseMillis, boolean useFencedWrites) {
        this.history = history;
        this.factory = factory;
        this.pauseMillis = pauseMillis;
        this.useFencedWrites = useFencedWrites;
    }

    void run(Lock lock, String key, long requested, String api) {
        String thread = Thread.currentThread().getName();
        long token = lock.fencingToken();
        history.write(ENTER, "pid", pid, "thr", thread, "key", key, "tok", token, "api", api, "req", requested);
        recordLoss(lock, key, token, thread);
        steps(key, token, thread, () -> true, TOKEN_COLUMN_UPDATE);
        history.write(EXIT, "pid", pid, "thr", thread, "key", key, "tok", token, "held", lock.isHeld());
    }

    /**
     * A section of the shared mode: the key is held for a short while, no database work (several hold it at once by
     * design, so there is nothing to protect); what is checked is how many hold it at once, from the {@code enter} and
     * {@code exit} lines, written like a critical section's and on the same clock.
     *
     * @param lock the lock: a permit, a read lock or the write lock of the read/write key
     * @param key its key
     * @param mode {@value Vocabulary#PERMIT}, {@value Vocabulary#READ} or {@value Vocabulary#WRITE}
     * @param requested when it was asked for (nano)
     * @param api {@code sync} or {@code call}
     */
    void runShared(Lock lock, String key, String mode, long requested, String api) {
        String thread = Thread.currentThread().getName();
        long token = lock.fencingToken();
        List<Object> fields = new ArrayList<>(List.of(
                "pid", pid, "thr", thread, "key", key, "tok", token, "api", api, "req", requested, "mode", mode));
        if (Vocabulary.PERMIT.equals(mode)) {
            fields.addAll(List.of("limit", Vocabulary.PERMITS));
        }
        history.write(ENTER, fields.toArray());
        recordLoss(lock, key, token, thread);
        sleep(SHARED_HOLD_MIN_MILLIS
                + ThreadLocalRandom.current().nextLong(SHARED_HOLD_MAX_MILLIS - SHARED_HOLD_MIN_MILLIS + 1));
        history.write(EXIT, "pid", pid, "thr", thread, "key", key, "tok", token, "held", lock.isHeld());
    }

    private void recordLoss(Lock lock, String key, long token, String thread) {
        lock.whenLost()
                .thenAccept(reason -> history.write(
                        LOST,
                        "pid",
                        pid,
                        "thr",
                        thread,
                        "key",
                        key,
                        "tok",
                        token,
                        "reason",
                        String.valueOf(reason.getMessage())));
    }

    /**
     * One action of the leader of the run's election, with the term's token: the steps of a critical section,
     * each begun only while this process still leads, so that no action stays open across a revocation
     * longer than its step under way (the lease outlasts the term by a tenth of the ttl for that).
     *
     * <p>The action's {@code req} is its term's grant: the lock it acts under was taken then, so a fault of this
     * process or of the store since then may explain an overlap, as for a section since it asked for its lock.
     *
     * @param leadership this process's candidacy
     * @param key the key of the leader's actions (the election's lock key)
     * @return whether the action ran: false when this process did not lead
     */
    boolean runAsLeader(Leadership leadership, String key) {
        String thread = Thread.currentThread().getName();
        acting.lock();
        try {
            OptionalLong term = leadership.token();
            if (term.isEmpty() || !leadership.isLeader()) {
                return false;
            }
            long token = term.getAsLong();
            long[] granted = grant;
            long requested = granted[0] == token ? granted[1] : System.nanoTime();
            BooleanSupplier leads =
                    () -> leadership.isLeader() && leadership.token().equals(term); // the same term, not a later one
            history.write(ENTER, "pid", pid, "thr", thread, "key", key, "tok", token, "api", "lead", "req", requested);
            steps(key, token, thread, leads, TERM_TOKEN_COLUMN_UPDATE);
            history.write(EXIT, "pid", pid, "thr", thread, "key", key, "tok", token, "held", leads.getAsBoolean());
            return true;
        } finally {
            acting.unlock();
        }
    }

    /**
     * A term began.
     *
     * @param token its token
     * @param at when it was granted (nano)
     */
    void granted(long token, long at) {
        grant = new long[] {token, at};
    }

    /**
     * Waits for the leader action under way, if any, to end: called when a term ends, before Baton releases the
     * lock, so that no action of the old term runs on while a new leader acts.
     *
     * @param millis the most to wait
     * @return whether no action was running at the end of the wait
     */
    boolean awaitLeaderAction(long millis) {
        try {
            if (acting.tryLock(millis, TimeUnit.MILLISECONDS)) {
                acting.unlock();
                return true;
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The read, the protected write and the counter's write, each only while {@code entitled} holds. */
    private void steps(String key, long token, String thread, BooleanSupplier entitled, String tokenColumnUpdate) {
        if (!entitled.getAsBoolean()) {
            return;
        }
        // the unfenced read ...
        Long read = null;
        try {
            read = inTransaction(em -> ((Number) em.createNativeQuery("SELECT v FROM counter WHERE k = ?1")
                            .setParameter(1, key)
                            .getSingleResult())
                    .longValue());
        } catch (RuntimeException e) {
            history.write(COUNTER, "pid", pid, "thr", thread, "key", key, "tok", token, "err", describe(e));
        }
        // ... the fenced write, with some work after it in the same transaction (where a pause hurts most) ...
        if (!entitled.getAsBoolean()) {
            return;
        }
        try {
            int rows = inTransaction(em -> {
                int n = useFencedWrites
                        ? fencedWrites(em).executeUpdate(em, key, token, FENCED_UPDATE, token, pid, key)
                        : em.createNativeQuery(tokenColumnUpdate)
                                .setParameter(1, token)
                                .setParameter(2, pid)
                                .setParameter(3, key)
                                .executeUpdate();
                pause();
                return n;
            });
            history.write(FENCED, "pid", pid, "thr", thread, "key", key, "tok", token, "rows", rows);
        } catch (RuntimeException e) {
            history.write(FENCED, "pid", pid, "thr", thread, "key", key, "tok", token, "err", describe(e));
        }
        // ... and the unfenced write of what was read plus one
        if (read != null && entitled.getAsBoolean()) {
            long wrote = read + 1;
            try {
                inTransaction(em -> em.createNativeQuery(
                                "UPDATE counter SET v = ?1, writer_pid = ?2, writer_token = ?3 WHERE k = ?4")
                        .setParameter(1, wrote)
                        .setParameter(2, pid)
                        .setParameter(3, token)
                        .setParameter(4, key)
                        .executeUpdate());
                history.write(
                        COUNTER, "pid", pid, "thr", thread, "key", key, "tok", token, "read", wrote - 1, "wrote",
                        wrote);
            } catch (RuntimeException e) {
                history.write(COUNTER, "pid", pid, "thr", thread, "key", key, "tok", token, "err", describe(e));
            }
        }
    }

    private void pause() {
        sleep(pauseMillis);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private FencedWrites fencedWrites(EntityManager em) {
        FencedWrites helper = fenced;
        if (helper == null) {
            helper = FencedWrites.forDatabaseOf(em); // as the store's README says: once, from the application's EM
            fenced = helper;
        }
        return helper;
    }

    private <T> T inTransaction(Function<EntityManager, T> work) {
        EntityManager em = factory.createEntityManager();
        EntityTransaction tx = em.getTransaction();
        try {
            tx.begin();
            T result = work.apply(em);
            tx.commit();
            return result;
        } catch (RuntimeException e) {
            try {
                if (tx.isActive()) {
                    tx.rollback();
                }
            } catch (RuntimeException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            em.close();
        }
    }

    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = e.getClass().getName() + ": " + e.getMessage();
        if (root != e) {
            text += " <- " + root.getClass().getName() + ": " + root.getMessage();
        }
        return text.length() > 400 ? text.substring(0, 400) : text;
    }
}
