package dev.baton.tck.runtime.smoke;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Answers with the configured greeting and the lock stores the application sees. */
@Path("smoke")
@RequestScoped
public class SmokeResource {

    @Inject
    SmokeBean bean;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String get() {
        return "greeting=" + bean.greeting() + "\nstores=" + bean.storeNames();
    }
}
