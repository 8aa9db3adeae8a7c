package dev.baton.tck.runtime.smoke;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * JAX-RS activation for the smoke scenario. {@code @ApplicationScoped} makes it a bean in an
 * annotated bean archive, which Helidon MP needs to find it; the servers do not mind.
 */
@ApplicationScoped
@ApplicationPath("api")
public class SmokeApplication extends Application {}
