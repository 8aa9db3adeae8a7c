package dev.baton.impl.store.file;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * What a lock file says about its key's lock: the key itself (to detect a shared hashed name), the owner,
 * the fencing token (which also names the holder's liveness region, see {@link SharedFile#slotPosition}),
 * the lease's end on the wall clock, the holder's process id and PID namespace ({@link HolderProcesses}), and the
 * key's next turn.
 *
 * <p>Stored as a few lines of ASCII ending with a CRC-32 of the lines before it. A file that is empty
 * holds no lock; so does one that does not check out (a process that died while writing it): the writer
 * held the file's critical section, so nobody else can have relied on a half-written record. A waiter claiming
 * the turn rewrites the record of a live holder: one positional write of a few hundred bytes over the old ones,
 * which a killed process does not leave half done (the kernel finishes a write to a regular file before the
 * process dies; only a power loss, which ends every holder too, could tear it). Bytes of a longer old record left
 * after a shorter new one (a process killed between the write and the truncation) are ignored: a record ends at
 * its first CRC line.
 *
 * @param key the key
 * @param owner the owner token
 * @param token the fencing token of the acquisition
 * @param expiresAtMillis the end of the lease, in epoch milliseconds
 * @param pid the process that took the lock
 * @param pidNamespace the PID namespace of that process ({@link HolderProcesses#NAMESPACE}); null in a record
 *     written by a version that did not record it
 * @param turn the key's next turn, kept for a waiter, live or not; null when there is none (also in a record written
 *     by a version without turns, which ignores the turn lines of newer ones: it only loses the order of waiters)
 */
record LockRecord(
        String key, String owner, long token, long expiresAtMillis, long pid, String pidNamespace, Turn turn) {

    private static final String MAGIC = "baton-file-lock 1";

    /**
     * A waiter's claim on the key's next turn ({@link dev.baton.spi.Turn}), on the wall clock.
     *
     * @param waiter the waiting acquisition
     * @param sinceMillis when it began to wait: of two waiters, the earlier one gets the turn
     * @param untilMillis when the turn lapses unless its waiter asks again
     */
    record Turn(String waiter, long sinceMillis, long untilMillis) {

        boolean liveAt(long nowMillis) {
            return untilMillis > nowMillis;
        }
    }

    /** @return the turn if it is live at {@code nowMillis}, else null */
    Turn liveTurnAt(long nowMillis) {
        return turn != null && turn.liveAt(nowMillis) ? turn : null;
    }

    /** @return this record with {@code newTurn} (null: none) */
    LockRecord withTurn(Turn newTurn) {
        return new LockRecord(key, owner, token, expiresAtMillis, pid, pidNamespace, newTurn);
    }

    /** @return whether the lease still runs at {@code nowMillis} */
    boolean leaseRunsAt(long nowMillis) {
        return expiresAtMillis > nowMillis;
    }

    LockRecord renewedUntil(long newExpiresAtMillis) {
        return new LockRecord(key, owner, token, newExpiresAtMillis, pid, pidNamespace, turn);
    }

    /**
     * @return the record a release leaves: no owner, no lease, the key's last token kept as its floor, and the turn
     *     of the waiter who takes the key next
     */
    LockRecord released() {
        return new LockRecord(key, "", token, 0, pid, pidNamespace, turn);
    }

    byte[] encode() {
        String body = MAGIC + "\n"
                + "key=" + Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8)) + "\n"
                + "owner=" + owner + "\n"
                + "token=" + token + "\n"
                + "expires=" + expiresAtMillis + "\n"
                + "pid=" + pid + "\n"
                + (pidNamespace == null ? "" : "pidns=" + pidNamespace + "\n")
                + (turn == null
                        ? ""
                        : "turn=" + turn.waiter() + "\n" + "turnsince=" + turn.sinceMillis() + "\n" + "turnuntil="
                                + turn.untilMillis() + "\n");
        return (body + "crc=" + crc(body.getBytes(StandardCharsets.US_ASCII)) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @param data the file's bytes
     * @return the record, or empty when the file holds none (empty, or not a whole record)
     */
    static Optional<LockRecord> decode(byte[] data) {
        String text = new String(data, StandardCharsets.US_ASCII);
        // The CRC line starts a line: an owner or waiter may hold "crc=" (printable ASCII), a key's base64 cannot.
        int lineAt = text.indexOf("\ncrc=");
        int crcAt = lineAt < 0 ? -1 : lineAt + 1;
        int crcEnd = crcAt < 0 ? -1 : text.indexOf('\n', crcAt);
        if (!text.startsWith(MAGIC + "\n") || crcEnd < 0) {
            return Optional.empty();
        }
        String body = text.substring(0, crcAt);
        if (!text.substring(crcAt + 4, crcEnd).equals(crc(body.getBytes(StandardCharsets.US_ASCII)))) {
            return Optional.empty();
        }
        Map<String, String> fields = new HashMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try {
            return Optional.of(new LockRecord(
                    new String(Base64.getDecoder().decode(fields.get("key")), StandardCharsets.UTF_8),
                    java.util.Objects.requireNonNull(fields.get("owner")),
                    Long.parseLong(fields.get("token")),
                    Long.parseLong(fields.get("expires")),
                    Long.parseLong(fields.get("pid")),
                    fields.get("pidns"),
                    fields.containsKey("turn")
                            ? new Turn(
                                    fields.get("turn"),
                                    Long.parseLong(fields.get("turnsince")),
                                    Long.parseLong(fields.get("turnuntil")))
                            : null));
        } catch (RuntimeException e) { // a field missing or mangled although the CRC matched: not ours
            return Optional.empty();
        }
    }

    private static String crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return Long.toHexString(crc.getValue());
    }
}
