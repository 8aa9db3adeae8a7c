package dev.baton.tck.runtime.ear;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS activation of the web module ({@code /api}). */
@ApplicationScoped
@ApplicationPath("api")
public class EarApplication extends Application {}
