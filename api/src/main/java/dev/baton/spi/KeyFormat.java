package dev.baton.spi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * How a lock key is written where it leaves the process: Baton's log lines (configuration key
 * {@code baton.log.keys}), and in its hashed form the 409 answer ({@code baton.http.conflict.key}). Keys are often
 * built from request data ({@code customer:{email}}), so an operator may keep them out of log shippers and
 * browsers. A store gets the form its log lines use from {@link StoreContext#logKeys()}.
 *
 * <p>Every form is a pure function of the key: the same key gives the same text in every instance and after every
 * restart, so lines of different instances can be matched up.
 */
public enum KeyFormat {

    /** The key as it is: {@code customer:ann@example.com}. */
    PLAIN("plain"),

    /**
     * {@code sha256:} and the first 16 hex digits of the SHA-256 of the key's UTF-8 bytes, e.g.
     * {@code sha256:5c1f0e0a6a0b3f8e}. It cannot be turned back into the key, but it is not salted: a key from a
     * small or guessable set (an order number, an e-mail address of a known list) is found again by hashing each
     * candidate. Use {@link #MASKED} where that matters.
     */
    HASH("hash"),

    /**
     * The key up to and including its first {@code :}, then {@code ***}: {@code customer:***}; a key without
     * {@code :} is {@code ***}. Tells which kind of key, never which one.
     */
    MASKED("masked");

    private static final String HASH_PREFIX = "sha256:";
    private static final int HASH_HEX_DIGITS = 16;
    private static final String MASK = "***";
    /** The shortest start of a key that {@link #redact} takes for the key. */
    private static final int SHORTENED_KEY = 40;

    private final String value;

    KeyFormat(String value) {
        this.value = value;
    }

    /** @return the form as it is configured: {@code plain}, {@code hash} or {@code masked} */
    public String value() {
        return value;
    }

    /**
     * @param value a configured value, in any case, without surrounding blanks
     * @return the form it names, or empty when it names none
     */
    public static Optional<KeyFormat> of(String value) {
        for (KeyFormat format : values()) {
            if (format.value.equals(value.toLowerCase(Locale.ROOT))) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /**
     * @param key a lock key
     * @return the key in this form
     */
    public String format(String key) {
        return switch (this) {
            case PLAIN -> key;
            case HASH -> hash(key);
            case MASKED -> {
                int colon = key.indexOf(':');
                yield colon < 0 ? MASK : key.substring(0, colon + 1) + MASK;
            }
        };
    }

    /**
     * Writes a key that a text may hold (a driver's or another layer's error message) in this form: for a log line
     * whose cause or detail was written by code that knew nothing of this setting. Stores shorten long keys in
     * their messages (the first 57 to 80 characters, then {@code ...}), so a start of the key of at least
     * {@value #SHORTENED_KEY} characters is taken for the key as well.
     *
     * @param text a text, may be {@code null}
     * @param key the key it may hold
     * @return the text with every occurrence of the key written in this form; {@code text} itself for
     *     {@link #PLAIN}, an empty key, or a text without the key
     */
    public String redact(String text, String key) {
        if (this == PLAIN || text == null || key == null || key.isEmpty()) {
            return text;
        }
        String redacted = text.contains(key) ? text.replace(key, format(key)) : text;
        for (int length = key.length() - 1; length >= SHORTENED_KEY; length--) {
            String start = key.substring(0, length);
            if (redacted.contains(start)) {
                return redacted.replace(start, format(key));
            }
        }
        return redacted;
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HASH_PREFIX + HexFormat.of().formatHex(digest).substring(0, HASH_HEX_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
