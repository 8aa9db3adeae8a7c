package dev.baton.tck.runtime.support;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS activation of every scenario ({@code /api}); a bean so Helidon MP finds it too. */
@ApplicationScoped
@ApplicationPath("api")
public class TckApplication extends Application {}
