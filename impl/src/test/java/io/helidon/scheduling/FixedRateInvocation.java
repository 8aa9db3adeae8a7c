package io.helidon.scheduling;

/** The name of the invocation Helidon 4 passes to a fixed-rate method, for impl's tests on JDK 17. */
public interface FixedRateInvocation {}
