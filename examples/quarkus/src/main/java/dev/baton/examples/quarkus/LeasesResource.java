package dev.baton.examples.quarkus;

import dev.baton.Lock;
import dev.baton.Locks;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code /leases/{key}}: takes a lock for the rest of the application's life, the documented way: it is
 * given back when Baton says it is lost ({@code whenLost()}), which it does when the application stops, so
 * the lock is released in the store then instead of being left to expire. {@code finishMillis} is how long
 * the holder takes to finish its current step before it gives the lock back (Baton waits for it, up to
 * {@code baton.shutdown-grace}).
 */
@Path("leases")
@Produces(MediaType.TEXT_PLAIN)
public class LeasesResource {

    @Inject
    Locks locks;

    /**
     * @param key the key
     * @param finishMillis how long after the loss the lock is given back
     * @return the lock's fencing token
     */
    @POST
    @Path("{key}")
    public String take(@PathParam("key") String key, @QueryParam("finishMillis") long finishMillis) {
        Lock lock = locks.acquire(key);
        lock.whenLost()
                .thenRunAsync(lock::close, CompletableFuture.delayedExecutor(finishMillis, TimeUnit.MILLISECONDS));
        return Long.toString(lock.fencingToken());
    }
}
