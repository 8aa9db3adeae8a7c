package dev.baton.examples.helidon.pair.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** {@code /api}: Helidon MP finds a JAX-RS application that is a CDI bean. */
@ApplicationScoped
@ApplicationPath("api")
public class PairApplication extends Application {}
