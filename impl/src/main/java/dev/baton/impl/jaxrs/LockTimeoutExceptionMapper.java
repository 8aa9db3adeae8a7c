package dev.baton.impl.jaxrs;

import dev.baton.LockTimeoutException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.time.Duration;
import java.util.Optional;

/**
 * Answers a {@link LockTimeoutException} with 409 Conflict and an RFC 9457 problem
 * ({@code application/problem+json}): {@code type}, {@code title}, {@code status}, {@code detail}, and the
 * members {@code key}, {@code timeoutMillis} (the caller's timeout, {@link LockTimeoutException#getTimeout()}),
 * {@code waitedMillis} (how long it actually waited, {@link LockTimeoutException#getWaited()}) and, when the
 * store reported the holder's remaining lease, {@code remainingLeaseMillis} with a {@code Retry-After}
 * header of that many seconds, rounded up. The members of the earlier body, {@code error} and
 * {@code message}, are still written for one release and are deprecated: read {@code type} and
 * {@code detail}. Found by the JAX-RS runtime's provider scanning; inert where there is no JAX-RS.
 */
@Provider
public class LockTimeoutExceptionMapper implements ExceptionMapper<LockTimeoutException> {

    /** The problem type: names the problem, not a page. */
    static final String TYPE = "urn:dev.baton:problem:lock-timeout";

    /** The media type of RFC 9457 problems. */
    static final MediaType PROBLEM_JSON = new MediaType("application", "problem+json");

    @Override
    public Response toResponse(LockTimeoutException exception) {
        Response.ResponseBuilder response =
                Response.status(Response.Status.CONFLICT).type(PROBLEM_JSON).entity(body(exception));
        retryAfterSeconds(exception).ifPresent(seconds -> response.header(HttpHeaders.RETRY_AFTER, seconds));
        return response.build();
    }

    static String body(LockTimeoutException exception) {
        ProblemBody body = new ProblemBody()
                .put("type", TYPE)
                .put("title", "Lock not acquired")
                .put("status", Response.Status.CONFLICT.getStatusCode())
                .put("detail", exception.getMessage())
                .put("key", exception.getKey())
                .put("timeoutMillis", exception.getTimeout().toMillis())
                .put("waitedMillis", exception.getWaited().toMillis());
        exception.getRemainingLease().ifPresent(lease -> body.put("remainingLeaseMillis", ceilMillis(lease)));
        // Deprecated, kept for one release: the body's members before it was a problem.
        return body.put("error", "lock-timeout")
                .put("message", exception.getMessage())
                .toJson();
    }

    /** @return the holder's remaining lease in whole seconds, rounded up, when the store told it */
    static Optional<Long> retryAfterSeconds(LockTimeoutException exception) {
        return exception.getRemainingLease().map(lease -> (ceilMillis(lease) + 999) / 1000);
    }

    private static long ceilMillis(Duration lease) {
        return (lease.toNanos() + 999_999) / 1_000_000;
    }
}
