package dev.baton.impl.engine;

import java.security.SecureRandom;
import java.util.Base64;

/** New owner tokens: 128 random bits from {@link SecureRandom}, URL-safe Base64 (22 chars). */
final class OwnerTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private OwnerTokens() {}

    static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }
}
