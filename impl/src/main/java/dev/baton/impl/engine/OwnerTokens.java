package dev.baton.impl.engine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * New owner tokens: 128 unpredictable bits, URL-safe Base64 (22 chars). Each thread draws from a generator of its
 * own, so making an owner takes no lock shared by every thread (Linux's default {@code SecureRandom}, NativePRNG,
 * serializes all its callers on one lock). The generator is a DRBG (NIST SP 800-90A, 256-bit strength), seeded
 * when the thread first needs one by the JDK's own seeding {@code SecureRandom}, and reseeding itself as the
 * standard requires. Each generator call costs a few hashes whatever its size, so a thread draws the bytes of
 * {@value #BATCH} tokens at once and hands them out one by one (each byte is handed out once, then overwritten),
 * encoded straight from the drawn bytes into the token's characters (no intermediate arrays).
 */
final class OwnerTokens {

    private static final int BYTES = 16;
    /** Characters of a token: 128 bits at 6 per character, no padding. */
    private static final int CHARS = 22;
    /** The URL-safe Base64 alphabet (RFC 4648, section 5). */
    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(StandardCharsets.US_ASCII);
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
        String token = encode(drawn.array(), at);
        Arrays.fill(drawn.array(), at, at + BYTES, (byte) 0); // handed out: not left for a later reader
        drawn.position(at + BYTES);
        return token;
    }

    /**
     * URL-safe Base64 without padding of {@value #BYTES} bytes, as {@code Base64.getUrlEncoder().withoutPadding()}
     * writes them.
     *
     * @param src the bytes
     * @param at where the token's bytes begin
     * @return the {@value #CHARS} characters
     */
    static String encode(byte[] src, int at) {
        byte[] out = new byte[CHARS];
        int o = 0;
        int i = at;
        for (int end = at + BYTES - 1; i < end; i += 3) { // five groups of three bytes: 20 characters
            int bits = (src[i] & 0xff) << 16 | (src[i + 1] & 0xff) << 8 | (src[i + 2] & 0xff);
            out[o++] = ALPHABET[bits >>> 18];
            out[o++] = ALPHABET[(bits >>> 12) & 0x3f];
            out[o++] = ALPHABET[(bits >>> 6) & 0x3f];
            out[o++] = ALPHABET[bits & 0x3f];
        }
        int last = src[i] & 0xff; // the sixteenth byte: two characters, the second padded with zero bits
        out[o++] = ALPHABET[last >>> 2];
        out[o] = ALPHABET[(last << 4) & 0x3f];
        return new String(out, StandardCharsets.ISO_8859_1);
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
