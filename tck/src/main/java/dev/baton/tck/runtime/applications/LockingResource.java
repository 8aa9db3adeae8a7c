package dev.baton.tck.runtime.applications;

import dev.baton.Lock;
import dev.baton.Locks;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Takes a lock on the default manager (the memory store) and gives it back, answering its fencing token. */
@Path("locking")
@RequestScoped
public class LockingResource {

    @Inject
    Locks locks;

    @POST
    @Produces(MediaType.TEXT_PLAIN)
    public String lockAndRelease(@QueryParam("key") String key) {
        try (Lock lock = locks.acquire(key)) {
            return "token=" + lock.fencingToken();
        }
    }
}
