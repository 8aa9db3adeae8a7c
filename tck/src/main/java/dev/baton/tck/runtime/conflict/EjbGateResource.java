package dev.baton.tck.runtime.conflict;

import dev.baton.LockTimeoutException;
import dev.baton.tck.runtime.support.Gate;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /api/ejb-gate}: each call goes through {@link EjbGate}, the lock is the bean's. {@code hold/{id}}
 * keeps {@code ejb-gate:{id}} until {@code open/{id}}; {@code wait/{id}} and {@code try/{id}} want it, waiting
 * 300 ms or not at all, and let what the bean throws reach JAX-RS; {@code try-stateful/{id}} wants it through a
 * stateful bean, which it calls once more after; {@code try-in-transaction/{id}} calls
 * {@code try} inside a transaction of its own, catches {@link LockTimeoutException} and tells the transaction's
 * status after it.
 */
@Path("ejb-gate")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class EjbGateResource {

    @Inject
    EjbGate bean;

    /**
     * Looked up only by {@link #tryOnceStateful}: Payara Micro 6 fails with a {@code LinkageError} (a duplicate
     * definition of the bean's generated view class) when two requests create their first stateful bean at once.
     */
    @Inject
    Instance<EjbGateSession> sessions;

    @Inject
    Gate gate;

    @Resource
    UserTransaction transaction;

    @POST
    @Path("hold/{id}")
    public String hold(@PathParam("id") String id) {
        return bean.hold(id);
    }

    @POST
    @Path("wait/{id}")
    public String waitFor(@PathParam("id") String id) {
        return bean.waitFor(id);
    }

    @POST
    @Path("try/{id}")
    public String tryOnce(@PathParam("id") String id) {
        return bean.tryOnce(id);
    }

    /** Calls the stateful bean's {@code tryOnce}, then calls the bean again, whatever the first call threw. */
    @POST
    @Path("try-stateful/{id}")
    public String tryOnceStateful(@PathParam("id") String id) {
        EjbGateSession session = sessions.get();
        try {
            return session.tryOnce(id);
        } finally {
            session.touch();
        }
    }

    /**
     * @return {@code caught <key>, marked rollback} when the bean's {@link LockTimeoutException} reached this
     *     caller as it is and the caller's transaction was marked for rollback; {@code got it, ...} when the bean
     *     got the lock; anything else the bean throws fails the request
     */
    @POST
    @Path("try-in-transaction/{id}")
    public String tryInTransaction(@PathParam("id") String id) throws Exception {
        transaction.begin();
        String outcome;
        try {
            outcome = bean.tryOnce(id);
        } catch (LockTimeoutException e) {
            outcome = "caught " + e.getKey();
        }
        int status = transaction.getStatus();
        transaction.rollback();
        return outcome + ", " + (status == Status.STATUS_MARKED_ROLLBACK ? "marked rollback" : "status " + status);
    }

    @GET
    @Path("entered/{id}")
    public String entered(@PathParam("id") String id) {
        return Boolean.toString(gate.entered("ejb-" + id));
    }

    @POST
    @Path("open/{id}")
    public String open(@PathParam("id") String id) {
        gate.open("ejb-" + id);
        return "opened";
    }
}
