package dev.baton.tck.runtime.smoke;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS activation for the smoke scenario. */
@ApplicationPath("api")
public class SmokeApplication extends Application {
}
