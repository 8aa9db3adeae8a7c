package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockTimeoutException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The 409 problem ({@code application/problem+json}, RFC 9457) and its {@code Retry-After}. */
class LockTimeoutExceptionMapperTest {

    private static JsonObject parsed(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    @Test
    void theAnswerIsA409ProblemWithRetryAfterFromTheHoldersRemainingLease() {
        LockTimeoutException timeout = new LockTimeoutException(
                "order:42", Duration.ofMillis(3_000), Duration.ofMillis(3_012), Duration.ofMillis(4_001));

        Response response = new LockTimeoutExceptionMapper().toResponse(timeout);

        assertThat(response.getStatus()).isEqualTo(409);
        assertThat(response.getMediaType().toString()).isEqualTo("application/problem+json");
        assertThat(response.getHeaderString("Retry-After"))
                .as("4001 ms, rounded up to seconds")
                .isEqualTo("5");
        JsonObject problem = parsed((String) response.getEntity());
        assertThat(problem.getString("type")).isEqualTo("urn:dev.baton:problem:lock-timeout");
        assertThat(problem.getString("title")).isEqualTo("Lock not acquired");
        assertThat(problem.getInt("status")).isEqualTo(409);
        assertThat(problem.getString("detail")).isEqualTo(timeout.getMessage()).contains("not acquired within 3000 ms");
        assertThat(problem.getString("key")).isEqualTo("order:42");
        assertThat(problem.getJsonNumber("timeoutMillis").longValue()).isEqualTo(3_000);
        assertThat(problem.getJsonNumber("waitedMillis").longValue()).isEqualTo(3_012);
        assertThat(problem.getJsonNumber("remainingLeaseMillis").longValue()).isEqualTo(4_001);
        // deprecated, for one release
        assertThat(problem.getString("error")).isEqualTo("lock-timeout");
        assertThat(problem.getString("message")).isEqualTo(timeout.getMessage());
    }

    @Test
    void withoutARemainingLeaseThereIsNoRetryAfter() {
        LockTimeoutException timeout = new LockTimeoutException("k", Duration.ZERO, Duration.ofMillis(4));

        Response response = new LockTimeoutExceptionMapper().toResponse(timeout);

        assertThat(response.getHeaderString("Retry-After")).isNull();
        JsonObject problem = parsed((String) response.getEntity());
        assertThat(problem.containsKey("remainingLeaseMillis")).isFalse();
        assertThat(problem.getJsonNumber("timeoutMillis").longValue()).isZero();
        assertThat(problem.getString("detail")).contains("held by another owner (not waiting)");
    }

    @Test
    void retryAfterIsRoundedUpToWholeSeconds() {
        assertThat(retryAfter(Duration.ZERO)).isEqualTo(0);
        assertThat(retryAfter(Duration.ofNanos(1))).isEqualTo(1);
        assertThat(retryAfter(Duration.ofMillis(1_000))).isEqualTo(1);
        assertThat(retryAfter(Duration.ofMillis(1_001))).isEqualTo(2);
    }

    private static long retryAfter(Duration lease) {
        return LockTimeoutExceptionMapper.retryAfterSeconds(
                        new LockTimeoutException("k", Duration.ZERO, Duration.ZERO, lease))
                .orElseThrow();
    }

    @Test
    void withoutJsonPTheBodyIsTheSameValidJsonForEveryCharacter() {
        StringBuilder nasty = new StringBuilder("order:\"7\"\\x/é\uD83D\uDE00");
        for (char c = 0; c < 0x20; c++) {
            nasty.append(c);
        }
        nasty.append('\u007f').append('\u2028');
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("key", nasty.toString());
        members.put("status", 409L);

        String written = ProblemBody.written(members);

        JsonObject parsed = parsed(written);
        assertThat(parsed.getString("key")).isEqualTo(nasty.toString());
        assertThat(parsed.getInt("status")).isEqualTo(409);
        assertThat(parsed)
                .isEqualTo(parsed(new ProblemBody()
                        .put("key", nasty.toString())
                        .put("status", 409)
                        .toJson()));
    }
}
