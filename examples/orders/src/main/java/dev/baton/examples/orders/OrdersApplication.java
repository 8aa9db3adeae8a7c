package dev.baton.examples.orders;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The orders service's REST API lives under {@code /api}. */
@ApplicationScoped
@ApplicationPath("api")
public class OrdersApplication extends Application {}
