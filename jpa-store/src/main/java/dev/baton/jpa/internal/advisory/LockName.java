package dev.baton.jpa.internal.advisory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What the database locks for a key: for PostgreSQL a 64-bit id, for MariaDB a {@code GET_LOCK} name.
 * Both are derived from the store's namespace (the schema-qualified table, so stores on different tables do
 * not exclude each other, as in table mode) and the key.
 *
 * <ul>
 * <li>{@link #id()}: the first 64 bits of SHA-256 of {@code namespace U+0000 key} (UTF-8; keys never contain
 * {@code U+0000}). Two keys may share an id (probability about n²/2^65 among n held keys): they then exclude
 * each other. One key always has one id, so it never has two holders.</li>
 * <li>{@link #name()}: {@code namespace/key} percent-encoded over its UTF-8 bytes, keeping only {@code a-z 0-9 _ .
 * : - /} as they are (so upper case, spaces and every non-ASCII byte are {@code %xx} with lower-case hex).
 * The name has no upper-case letter and no space: a case-insensitive or PAD SPACE comparison of lock names
 * (MariaDB documents them as case-insensitive) still tells any two apart, and NFC/NFD forms differ in their bytes. A
 * name over {@value #MAX_NAME} chars (the limit of MySQL and MariaDB) is {@code baton#} and 58 hex digits of
 * the SHA-256 (232 bits), which no encoded name can equal (it would have {@code %23} for {@code #}).</li>
 * </ul>
 *
 * @param id the PostgreSQL advisory lock id
 * @param name the MariaDB lock name
 */
public record LockName(long id, String name) {

    /** The longest lock name MySQL and MariaDB accept. */
    static final int MAX_NAME = 64;

    private static final String HASHED_PREFIX = "baton#";

    /**
     * The lock of a key.
     *
     * @param namespace the table the database resolves the store's to, qualified by its schema (PostgreSQL) or
     *     database (MariaDB), in the database's own spelling
     * @param key a valid key
     * @return its id and name
     */
    public static LockName of(String namespace, String key) {
        byte[] digest = sha256((namespace + '\u0000' + key).getBytes(StandardCharsets.UTF_8));
        long id = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            id = id << 8 | (digest[i] & 0xFF);
        }
        String encoded = encode(namespace + '/' + key);
        String name = encoded.length() <= MAX_NAME
                ? encoded
                : HASHED_PREFIX + HexFormat.of().formatHex(digest).substring(0, MAX_NAME - HASHED_PREFIX.length());
        return new LockName(id, name);
    }

    private static String encode(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c >= 'a' && c <= 'z'
                    || c >= '0' && c <= '9'
                    || c == '_'
                    || c == '.'
                    || c == ':'
                    || c == '-'
                    || c == '/') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
            }
            if (out.length() > MAX_NAME) {
                break; // hashed anyway
            }
        }
        return out.toString();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
