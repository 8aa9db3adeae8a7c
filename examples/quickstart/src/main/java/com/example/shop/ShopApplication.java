package com.example.shop;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The shop's HTTP API under {@code /api}. */
@ApplicationPath("api")
public class ShopApplication extends Application {}
