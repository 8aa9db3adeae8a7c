package dev.baton.tck.runtime.transactions;

import dev.baton.Lock;
import dev.baton.LockInfo;
import dev.baton.Locks;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The requests of {@link DataSourceStoreTransactionsTest} ({@code /api/jpa/...}); each answers
 * {@code name=value} pairs separated by {@code ,}, or {@code failed: <exception>}.
 */
@Path("jpa")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class DataSourceResource {

    @Inject
    DataSourceWork work;

    @Inject
    DataSourceReads reads;

    @Inject
    Locks locks;

    /** {@code POST /api/jpa/lost/{name}}: writes under a lock freed by force before the commit. */
    @POST
    @Path("lost/{name}")
    public String lose(@PathParam("name") String name) {
        try {
            boolean held = work.incrementThenLoseTheLock(name);
            return "committed (lock held at return: " + held + ")";
        } catch (Exception e) {
            // Servers differ: TransactionalException, or the RollbackException itself thrown undeclared.
            return "rolled back: " + e.getClass().getName();
        }
    }

    /** {@code GET /api/jpa/counter/{name}}: the committed value of a counter. */
    @GET
    @Path("counter/{name}")
    public String read(@PathParam("name") String name) {
        return Long.toString(reads.read(name));
    }

    /**
     * {@code POST /api/jpa/rollback?key=..&name=..}: takes the lock and writes the counter in a transaction that
     * is rolled back; then, on the same thread and with no transaction, what the store tells of the key, the
     * counter, the release of the lock, and the token of the next acquisition of the key.
     */
    @POST
    @Path("rollback")
    public String rollBack(@QueryParam("key") String key, @QueryParam("name") String name) {
        try {
            Lock lock = work.acquireWriteAndRollBack(key, name);
            Optional<LockInfo> holder = locks.inspect(key);
            long counter = reads.read(name);
            boolean held = lock.isHeld();
            boolean released = lock.release();
            long next;
            try (Lock again = locks.acquire(key)) {
                next = again.fencingToken();
            }
            return "token=" + lock.fencingToken()
                    + ",held=" + held
                    + ",holder=" + holder.map(LockInfo::fencingToken).orElse(0L)
                    + ",counter=" + counter
                    + ",released=" + released
                    + ",next=" + next;
        } catch (Exception e) {
            return "failed: " + e;
        }
    }

    /**
     * {@code POST /api/jpa/long/hold?key=..}: holds a transaction open that has written a row and taken the
     * lock, until {@code /api/jpa/long/probe} is done; answers the lock's token.
     */
    @POST
    @Path("long/hold")
    public String hold(@QueryParam("key") String key) {
        try {
            return "token=" + work.holdInALongTransaction(key);
        } catch (Exception e) {
            return "failed: " + e;
        }
    }

    /**
     * {@code POST /api/jpa/long/probe?a=..&b=..}: once {@code /api/jpa/long/hold?key=a} holds its lock (in its
     * open transaction): takes and releases {@code b}, asks the store who holds {@code a}, and tries {@code a}
     * once; then lets the holder commit.
     */
    @POST
    @Path("long/probe")
    public String probe(@QueryParam("a") String a, @QueryParam("b") String b) {
        try {
            long holding = work.holding().get(DataSourceWork.SAFETY_SECONDS, TimeUnit.SECONDS);
            long start = System.nanoTime();
            long other;
            try (Lock lock = locks.tryAcquire(b).orElseThrow(() -> new IllegalStateException(b + " was not free"))) {
                other = lock.fencingToken();
            }
            long holder = locks.inspect(a).map(LockInfo::fencingToken).orElse(0L);
            Optional<Lock> taken = locks.tryAcquire(a);
            taken.ifPresent(Lock::close);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            return "holding=" + holding
                    + ",b=" + other
                    + ",holder=" + holder
                    + ",a-taken=" + taken.isPresent()
                    + ",millis=" + millis;
        } catch (Exception e) {
            return "failed: " + e;
        } finally {
            work.finish();
        }
    }

    /** {@code POST /api/jpa/acquire?key=..}: takes and releases the lock; answers its token. */
    @POST
    @Path("acquire")
    public String acquire(@QueryParam("key") String key) {
        try (Lock lock = locks.acquire(key)) {
            return Long.toString(lock.fencingToken());
        }
    }
}
