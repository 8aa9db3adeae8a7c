package dev.baton.impl.engine;

import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * New owner tokens: 128 unpredictable bits, URL-safe Base64 (22 chars). Each thread draws from a generator of its
 * own, so making an owner takes no lock shared by every thread (Linux's default {@code SecureRandom}, NativePRNG,
 * serializes all its callers on one lock). The generator is a DRBG (NIST SP 800-90A, 256-bit strength), seeded
 * when the thread first needs one by the JDK's own seeding {@code SecureRandom}, and reseeding itself as the
 * standard requires.
 */
final class OwnerTokens {

    private static final int BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final ThreadLocal<SecureRandom> GENERATOR = ThreadLocal.withInitial(OwnerTokens::generator);

    private OwnerTokens() {}

    /**
     * @return a new owner token, unpredictable to anyone who has seen the others
     */
    static String next() {
        byte[] bytes = new byte[BYTES];
        GENERATOR.get().nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }

    private static SecureRandom generator() {
        try {
            return SecureRandom.getInstance(
                    "DRBG", DrbgParameters.instantiation(256, DrbgParameters.Capability.NONE, null));
        } catch (NoSuchAlgorithmException e) {
            // A runtime restricted to other providers (a FIPS setup): its default generator, still one per thread.
            return new SecureRandom();
        }
    }
}
