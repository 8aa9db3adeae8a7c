package dev.baton.tck.runtime.shared;

import dev.baton.LockOptions;
import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code /api/async}: JAX-RS methods returning a {@link CompletionStage}, so asynchronous responses, locking the
 * key of {@code conflict.GateResource}'s holder, {@code gate:{id}}. {@code wait/{id}} waits up to 30 s and answers
 * on which thread it ran: the request's (the key was free) or another (the runtime ran it on the thread that got
 * the lock); {@code acquire/{id}} does the same with {@link Locks#acquireAsync}, answering from the stage it
 * chains; {@code give-up/{id}} waits {@value #GIVE_UP_MILLIS} ms. Each request counts itself in {@link Arrivals}
 * ({@code async}) before asking for the lock.
 */
@Path("async")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class AsyncResource {

    /** The timeout of {@code give-up/{id}}. */
    static final long GIVE_UP_MILLIS = 300;

    @Inject
    Arrivals arrivals;

    @Inject
    Locks locks;

    /** The thread of this request: the bean is created on it, before the interceptor asks for the lock. */
    private Thread requestThread;

    @PostConstruct
    void arrive() {
        requestThread = Thread.currentThread();
        arrivals.arrive("async");
    }

    @POST
    @Path("wait/{id}")
    @Synchronized(value = "gate:{id}", timeout = "30s")
    public CompletionStage<String> waitFor(@PathParam("id") String id) {
        return CompletableFuture.completedFuture(where());
    }

    @POST
    @Path("acquire/{id}")
    public CompletionStage<String> acquire(@PathParam("id") String id) {
        return locks.acquireAsync("gate:" + id, LockOptions.defaults().withTimeout(Duration.ofSeconds(30)))
                .thenApply(lock -> {
                    try (lock) { // released on this thread: the lock is its handle's
                        return where();
                    }
                });
    }

    @POST
    @Path("give-up/{id}")
    @Synchronized(value = "gate:{id}", timeout = GIVE_UP_MILLIS + "ms")
    public CompletionStage<String> giveUp(@PathParam("id") String id) {
        return CompletableFuture.completedFuture("got it");
    }

    private String where() {
        return Thread.currentThread() == requestThread ? "on the request thread" : "on another thread";
    }
}
