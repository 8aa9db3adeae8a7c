package dev.baton.impl.engine;

import java.nio.ByteBuffer;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * New owner tokens: 128 unpredictable bits, URL-safe Base64 (22 chars). Each thread draws from a generator of its
 * own, so making an owner takes no lock shared by every thread (Linux's default {@code SecureRandom}, NativePRNG,
 * serializes all its callers on one lock). The generator is a DRBG (NIST SP 800-90A, 256-bit strength), seeded
 * when the thread first needs one by the JDK's own seeding {@code SecureRandom}, and reseeding itself as the
 * standard requires. Each generator call costs a few hashes whatever its size, so a thread draws the bytes of
 * {@value #BATCH} tokens at once and hands them out one by one (each byte is handed out once, then overwritten).
 */
final class OwnerTokens {

    private static final int BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    /** Tokens drawn from the generator in one call. */
    private static final int BATCH = 32;

    private static final ThreadLocal<SecureRandom> GENERATOR = ThreadLocal.withInitial(OwnerTokens::generator);
    /** Each thread's bytes drawn last, not yet handed out (JDK types only: a thread-local keeps no class loader). */
    private static final ThreadLocal<ByteBuffer> DRAWN =
            ThreadLocal.withInitial(() -> ByteBuffer.allocate(BYTES * BATCH).position(BYTES * BATCH));

    private OwnerTokens() {}

    /**
     * @return a new owner token, unpredictable to anyone who has seen the others
     */
    static String next() {
        ByteBuffer drawn = DRAWN.get();
        if (!drawn.hasRemaining()) {
            GENERATOR.get().nextBytes(drawn.array());
            drawn.clear();
        }
        int at = drawn.position();
        byte[] bytes = new byte[BYTES];
        drawn.get(bytes);
        Arrays.fill(drawn.array(), at, at + BYTES, (byte) 0); // handed out: not left for a later reader
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
