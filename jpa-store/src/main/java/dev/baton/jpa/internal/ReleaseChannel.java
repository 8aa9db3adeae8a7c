package dev.baton.jpa.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The name of the PostgreSQL channel on which the releases of one lock table are notified:
 * {@code baton_release:} and the table name as configured, in lower case (as PostgreSQL folds an
 * unquoted name), e.g. {@code baton_release:baton_locks}. Every instance that names the table alike
 * shares the channel. A name longer than PostgreSQL's 63-byte identifier limit becomes
 * {@code baton_release:} and the first 32 hex digits of the SHA-256 of the table name.
 */
public final class ReleaseChannel {

    private static final String PREFIX = "baton_release:";
    /** PostgreSQL's NAMEDATALEN - 1: a longer channel name would be cut, differently by LISTEN and pg_notify. */
    private static final int MAX_BYTES = 63;

    private ReleaseChannel() {}

    /**
     * @param table the table name as configured (a valid identifier, see {@link Identifiers})
     * @return the channel name, at most 63 bytes, without a double quote
     */
    public static String name(String table) {
        String name = PREFIX + table.toLowerCase(Locale.ROOT);
        if (name.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES) {
            return name;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(table.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
            return PREFIX + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
