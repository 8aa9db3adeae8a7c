package dev.baton.impl.jaxrs;

import dev.baton.LockTimeoutException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Answers a {@link LockTimeoutException} with 409 Conflict and a small JSON body: the key, the caller's
 * timeout ({@code timeoutMillis}, {@link LockTimeoutException#getTimeout()}), how long it actually waited
 * ({@code waitedMillis}, {@link LockTimeoutException#getWaited()}) and the message. Found by the JAX-RS
 * runtime's provider scanning; inert where there is no JAX-RS.
 */
@Provider
public class LockTimeoutExceptionMapper implements ExceptionMapper<LockTimeoutException> {

    @Override
    public Response toResponse(LockTimeoutException exception) {
        return Response.status(Response.Status.CONFLICT)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(body(exception))
                .build();
    }

    static String body(LockTimeoutException exception) {
        return "{\"error\":\"lock-timeout\",\"key\":\"" + json(exception.getKey()) + "\",\"timeoutMillis\":"
                + exception.getTimeout().toMillis() + ",\"waitedMillis\":" + exception.getWaited().toMillis()
                + ",\"message\":\"" + json(exception.getMessage()) + "\"}";
    }

    private static String json(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
