package dev.baton.etcd.internal;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a lock lives in etcd's key space: {@code <root>/<key>}, the key's UTF-8 bytes as they are (etcd keys are
 * any bytes, so a key with {@code U+0000} needs no escaping). Every etcd key below {@code <root>/} is a lock of
 * this root; the release watch reads lock keys back from the prefix.
 */
public final class EtcdKeys {

    /** The longest root accepted, in chars. */
    public static final int MAX_ROOT_LENGTH = 200;

    private final String root;
    private final ByteSequence prefix;

    /**
     * @param root a root checked by {@link #requireValidRoot}
     */
    public EtcdKeys(String root) {
        this.root = requireValidRoot(root);
        this.prefix = ByteSequence.from(root + "/", StandardCharsets.UTF_8);
    }

    /**
     * Checks a root: it starts with {@code /}, does not end with one, and holds printable ASCII only, so it reads
     * the same in every tool ({@code etcdctl get --prefix /baton/}).
     *
     * @param root the root
     * @return the root
     * @throws IllegalArgumentException naming what is wrong
     */
    public static String requireValidRoot(String root) {
        Objects.requireNonNull(root, "root");
        if (root.length() < 2 || root.charAt(0) != '/' || root.endsWith("/")) {
            throw new IllegalArgumentException(
                    "the etcd root must start with '/' and name something below it, without a trailing '/'"
                            + " (e.g. /baton), was '" + root + "'");
        }
        if (root.length() > MAX_ROOT_LENGTH) {
            throw new IllegalArgumentException(
                    "the etcd root is " + root.length() + " chars long, at most " + MAX_ROOT_LENGTH + " allowed");
        }
        for (int i = 0; i < root.length(); i++) {
            char c = root.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("the etcd root '" + root + "' has a char that is not printable"
                        + " ASCII at index " + i + " (U+" + String.format("%04X", (int) c) + ")");
            }
        }
        return root;
    }

    /** @return the root */
    public String root() {
        return root;
    }

    /** @return {@code <root>/}: every lock key starts with it */
    public ByteSequence prefix() {
        return prefix;
    }

    /**
     * @param key a lock key (valid UTF-16)
     * @return its etcd key
     */
    public ByteSequence lockKey(String key) {
        return prefix.concat(ByteSequence.from(key, StandardCharsets.UTF_8));
    }

    /**
     * @param etcdKey an etcd key
     * @return the lock key it names, if it is one of this root's
     */
    public Optional<String> keyOf(ByteSequence etcdKey) {
        if (etcdKey == null || !etcdKey.startsWith(prefix) || etcdKey.size() == prefix.size()) {
            return Optional.empty();
        }
        return Optional.of(etcdKey.substring(prefix.size()).toString(StandardCharsets.UTF_8));
    }
}
