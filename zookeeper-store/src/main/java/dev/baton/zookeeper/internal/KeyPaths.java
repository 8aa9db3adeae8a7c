package dev.baton.zookeeper.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.common.PathUtils;

/**
 * Where a key's nodes are: {@code <root>/<name>} (the key's node, a container whose data version counts the key's
 * acquisitions) and {@code <root>/<name>/lock} (the lock, an ephemeral node of the holder's session).
 *
 * <p>The name is the key's UTF-8 bytes with every byte but {@code A-Z a-z 0-9 - _ : = @ , + ~ ; ! $} written as
 * {@code %XX}: one name per key and one key per name, whatever the key holds ({@code /}, {@code .}, {@code U+0000},
 * characters ZooKeeper refuses in paths), and keys such as {@code order:42} stay readable in {@code zkCli}.
 */
public final class KeyPaths {

    /** The name of a key's lock node. */
    static final String LOCK = "lock";

    private static final String SAFE = "-_:=@,+~;!$";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final String root;

    /**
     * @param root the store's root node, checked with {@link #requireValidRoot}
     */
    public KeyPaths(String root) {
        this.root = requireValidRoot(root);
    }

    /**
     * Checks a root node path: absolute, not {@code /} itself, no trailing {@code /}, nothing ZooKeeper refuses,
     * and not below {@code /zookeeper} (the server's own).
     *
     * @param root the path
     * @return the path
     * @throws IllegalArgumentException naming what is wrong
     */
    public static String requireValidRoot(String root) {
        if (root == null || root.isEmpty()) {
            throw new IllegalArgumentException("the root node must not be empty: use an absolute path such as /baton");
        }
        if (root.equals("/")) {
            throw new IllegalArgumentException(
                    "the root node must not be / itself: the store needs a node of its own, such as /baton");
        }
        try {
            PathUtils.validatePath(root);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + root + "' is not a ZooKeeper path: " + e.getMessage(), e);
        }
        if (root.equals("/zookeeper") || root.startsWith("/zookeeper/")) {
            throw new IllegalArgumentException("'" + root + "' is below /zookeeper, which the server keeps for itself");
        }
        return root;
    }

    /** @return the root node */
    public String root() {
        return root;
    }

    /**
     * @param key a key
     * @return the key's node
     */
    public String keyNode(String key) {
        return root + "/" + name(key);
    }

    /**
     * @param key a key
     * @return the key's lock node
     */
    public String lockNode(String key) {
        return keyNode(key) + "/" + LOCK;
    }

    /**
     * The key whose lock node {@code path} is.
     *
     * @param path a node's path, as a watch reports it
     * @return the key, or null when {@code path} is not a lock node of this root
     */
    public String keyOfLockNode(String path) {
        int start = root.length() + 1;
        int end = path.length() - LOCK.length() - 1;
        if (end <= start
                || !path.startsWith(root)
                || path.charAt(root.length()) != '/'
                || !path.endsWith("/" + LOCK)
                || path.indexOf('/', start) != end) {
            return null;
        }
        try {
            return key(path.substring(start, end));
        } catch (IllegalArgumentException e) {
            return null; // a node of someone else's below the root
        }
    }

    /**
     * @param key a key
     * @return its node's name
     */
    static String name(String key) {
        StringBuilder name = new StringBuilder(key.length() + 8);
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || SAFE.indexOf(c) >= 0) {
                name.append(c);
            } else {
                name.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return name.toString();
    }

    /**
     * @param name a key node's name
     * @return the key it names
     * @throws IllegalArgumentException if no key has that name
     */
    static String key(String name) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%' && i + 2 < name.length()) {
                int high = Character.digit(name.charAt(i + 1), 16);
                int low = Character.digit(name.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    throw new IllegalArgumentException("bad escape in node name '" + name + "'");
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else if (c < 0x80 && c != '%') {
                bytes.write(c);
            } else {
                throw new IllegalArgumentException("not a key node's name: '" + name + "'");
            }
        }
        try {
            String key = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
            if (!name(key).equals(name)) {
                throw new IllegalArgumentException("not a key node's name (not written by the store): '" + name + "'");
            }
            return key;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not a key node's name (not UTF-8): '" + name + "'", e);
        }
    }
}
