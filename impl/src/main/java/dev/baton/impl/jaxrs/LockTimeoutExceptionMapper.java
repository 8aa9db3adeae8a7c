package dev.baton.impl.jaxrs;

import dev.baton.LockTimeoutException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.BatonConfig.ConflictKey;
import dev.baton.spi.KeyFormat;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Answers a {@link LockTimeoutException} with 409 Conflict and an RFC 9457 problem
 * ({@code application/problem+json}): {@code type}, {@code title}, {@code status}, {@code detail}, and the
 * members {@code key}, {@code timeoutMillis} (the caller's timeout, {@link LockTimeoutException#getTimeout()}),
 * {@code waitedMillis} (how long it actually waited, {@link LockTimeoutException#getWaited()}) and, when the
 * store reported the holder's remaining lease, {@code remainingLeaseMillis} with a {@code Retry-After}
 * header of that many seconds, rounded up. The members of the earlier body, {@code error} and
 * {@code message}, are still written for one release and are deprecated: read {@code type} and
 * {@code detail}. Found by the JAX-RS runtime's provider scanning; inert where there is no JAX-RS.
 *
 * <p>What the body says of the key is {@code baton.http.conflict.key} ({@link ConflictKey}): the key, its hash
 * (in {@code key} and in {@code detail}, as {@code baton.log.keys=hash} writes it in log lines), or nothing (no
 * {@code key} member, a {@code detail} without it). {@code Retry-After} and the other members are the same in every
 * form.
 */
@Provider
public class LockTimeoutExceptionMapper implements ExceptionMapper<LockTimeoutException> {

    /** The problem type: names the problem, not a page. */
    static final String TYPE = "urn:dev.baton:problem:lock-timeout";

    /** The media type of RFC 9457 problems. */
    static final MediaType PROBLEM_JSON = new MediaType("application", "problem+json");

    /** How {@code detail} names the lock when the body says nothing of its key. */
    static final String WITHHELD = "The lock";

    /**
     * {@code baton.http.conflict.key}, read at the first answer: the JAX-RS runtime makes the mapper outside CDI, on
     * the application's thread (whose class loader finds the application's configuration).
     */
    private volatile ConflictKey form;

    @Override
    public Response toResponse(LockTimeoutException exception) {
        Response.ResponseBuilder response =
                Response.status(Response.Status.CONFLICT).type(PROBLEM_JSON).entity(body(exception, form()));
        retryAfterSeconds(exception).ifPresent(seconds -> response.header(HttpHeaders.RETRY_AFTER, seconds));
        return response.build();
    }

    private ConflictKey form() {
        ConflictKey read = form;
        if (read == null) {
            read = readForm();
            form = read;
        }
        return read;
    }

    private static ConflictKey readForm() {
        try {
            return BatonConfig.conflictKey(ConfigProvider.getConfig());
        } catch (RuntimeException | LinkageError e) {
            // No configuration to read (Baton's deployment would have failed): say nothing of the key rather than
            // show one an operator may have hidden.
            return ConflictKey.NONE;
        }
    }

    static String body(LockTimeoutException exception, ConflictKey form) {
        String key = exception.getKey();
        String detail = detail(exception.getMessage(), key, form);
        ProblemBody body = new ProblemBody()
                .put("type", TYPE)
                .put("title", "Lock not acquired")
                .put("status", Response.Status.CONFLICT.getStatusCode())
                .put("detail", detail);
        if (form == ConflictKey.KEY) {
            body.put("key", key);
        } else if (form == ConflictKey.HASH) {
            body.put("key", KeyFormat.HASH.format(key));
        }
        body.put("timeoutMillis", exception.getTimeout().toMillis())
                .put("waitedMillis", exception.getWaited().toMillis());
        exception.getRemainingLease().ifPresent(lease -> body.put("remainingLeaseMillis", ceilMillis(lease)));
        // Deprecated, kept for one release: the body's members before it was a problem.
        return body.put("error", "lock-timeout").put("message", detail).toJson();
    }

    /**
     * The exception's message with the key as the form says: {@code Lock 'k' was not acquired ...} becomes
     * {@code Lock 'sha256:...' was not acquired ...} or {@code The lock was not acquired ...}. Only the key at the
     * start is replaced, where every {@link LockTimeoutException} names it: replacing its every occurrence would
     * rewrite the words of the sentence too when the key is short ({@code k}).
     */
    static String detail(String message, String key, ConflictKey form) {
        if (message == null || key == null || key.isEmpty() || form == ConflictKey.KEY) {
            return message;
        }
        String named = "Lock '" + key + "'";
        if (message.startsWith(named)) {
            String rest = message.substring(named.length());
            return (form == ConflictKey.HASH ? "Lock '" + KeyFormat.HASH.format(key) + "'" : WITHHELD) + rest;
        }
        // a subclass that wrote a message of its own
        return form == ConflictKey.HASH ? KeyFormat.HASH.redact(message, key) : WITHHELD + " was not acquired";
    }

    /** @return the holder's remaining lease in whole seconds, rounded up, when the store told it */
    static Optional<Long> retryAfterSeconds(LockTimeoutException exception) {
        return exception.getRemainingLease().map(lease -> (ceilMillis(lease) + 999) / 1000);
    }

    private static long ceilMillis(Duration lease) {
        return (lease.toNanos() + 999_999) / 1_000_000;
    }
}
