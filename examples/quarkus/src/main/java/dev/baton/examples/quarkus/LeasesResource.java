package dev.baton.examples.quarkus;

import dev.baton.Lock;
import dev.baton.Locks;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /leases/{key}}: takes a lock for the rest of the application's life, the documented way: it is
 * given back when Baton says it is lost ({@code whenLost()}), which it does when the application stops, so
 * the lock is released in the store then instead of being left to expire.
 */
@Path("leases")
@Produces(MediaType.TEXT_PLAIN)
public class LeasesResource {

    @Inject
    Locks locks;

    /**
     * @param key the key
     * @return the lock's fencing token
     */
    @POST
    @Path("{key}")
    public String take(@PathParam("key") String key) {
        Lock lock = locks.acquire(key);
        lock.whenLost().thenRun(lock::close);
        return Long.toString(lock.fencingToken());
    }
}
