package dev.baton.impl.store.file;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The name of a key's lock file: safe and distinct on every common file system.
 *
 * <p>A key (valid UTF-16, {@code U+0000} included) is encoded as its UTF-8 bytes in lower-case base32
 * ({@code a-z}, {@code 2-7}, no padding): {@code k-<base32>.lock}. UTF-8 is injective on valid UTF-16 and
 * base32 is injective on bytes, so two keys never share such a name. The alphabet has no upper-case
 * letters, no separators, dots or spaces, so a case-insensitive file system ({@code k}/{@code K}: NTFS,
 * APFS, HFS+), one that normalizes Unicode names (HFS+: NFC/NFD) or one that trims trailing dots and
 * spaces (Windows) sees exactly the names we wrote, and no name is a reserved device name ({@code CON},
 * {@code NUL}, ...).
 *
 * <p>Names are kept to at most {@value #MAX_NAME_LENGTH} ASCII chars, under every common limit (255
 * bytes on ext4, XFS, NTFS, APFS; 143 on eCryptfs), and a lock file's companion
 * ({@link SharedFile#COMPANION_SUFFIX}) adds five, its section marker ({@link SectionMarker#SUFFIX}) eight. A key whose name would be longer (about 75 UTF-8
 * bytes and up) is named {@code h-<base32 of SHA-256 of its UTF-8>.lock} instead. The {@code k-}/{@code h-}
 * prefixes keep the two schemes apart, so a direct name never equals a hashed one. Two keys share a
 * hashed name only if SHA-256 collides; even then exclusion holds: each lock file records its key, and
 * an operation that finds a live lock of another key in its file fails with a
 * {@link dev.baton.LockStoreException} instead of treating one key as the other.
 */
final class LockFileNames {

    /** The longest file name we produce, in ASCII chars. */
    static final int MAX_NAME_LENGTH = 128;

    private static final String DIRECT = "k-";
    private static final String HASHED = "h-";
    private static final String SUFFIX = ".lock";
    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private LockFileNames() {}

    /**
     * @param key a valid key
     * @return the name of its lock file
     */
    static String fileName(String key) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        // base32 takes 8 chars per 5 bytes; check the length before encoding a 1,500-byte key.
        if (DIRECT.length() + (utf8.length * 8 + 4) / 5 + SUFFIX.length() <= MAX_NAME_LENGTH) {
            return DIRECT + base32(utf8) + SUFFIX;
        }
        return HASHED + base32(sha256(utf8)) + SUFFIX;
    }

    /** @return whether {@code name} is a direct name, which tells its key ({@link #keyOf}) */
    static boolean isDirect(String name) {
        return name.startsWith(DIRECT);
    }

    /**
     * The inverse of {@link #fileName} for direct names.
     *
     * @param name a file name
     * @return the key whose lock file has this direct name; null for a hashed name or any other file
     */
    static String keyOf(String name) {
        if (!name.startsWith(DIRECT) || !name.endsWith(SUFFIX)) {
            return null;
        }
        byte[] utf8 = unbase32(name.substring(DIRECT.length(), name.length() - SUFFIX.length()));
        if (utf8 == null) {
            return null;
        }
        String key = new String(utf8, StandardCharsets.UTF_8);
        return name.equals(fileName(key)) ? key : null; // not a name we write (bad UTF-8, stray bits): no key
    }

    /** @return whether {@code name} is the name of a lock file (not the counter, not a stranger's file) */
    static boolean isLockFileName(String name) {
        return (name.startsWith(DIRECT) || name.startsWith(HASHED)) && name.endsWith(SUFFIX);
    }

    static String base32(byte[] bytes) {
        StringBuilder out = new StringBuilder((bytes.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : bytes) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(BASE32[(buffer >> (bits - 5)) & 31]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(BASE32[(buffer << (5 - bits)) & 31]);
        }
        return out.toString();
    }

    private static byte[] unbase32(String text) {
        byte[] out = new byte[text.length() * 5 / 8];
        int buffer = 0;
        int bits = 0;
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int value = c >= 'a' && c <= 'z' ? c - 'a' : c >= '2' && c <= '7' ? c - '2' + 26 : -1;
            if (value < 0) {
                return null;
            }
            buffer = (buffer << 5) | value;
            bits += 5;
            if (bits >= 8) {
                out[n++] = (byte) (buffer >> (bits - 8));
                bits -= 8;
            }
        }
        return out;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
