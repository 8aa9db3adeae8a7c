package dev.baton.jpa;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Owner tokens as the runtime makes them: 128 random bits. */
final class JpaTestOwners {

    private static final SecureRandom RANDOM = new SecureRandom();

    private JpaTestOwners() {}

    static String owner() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
