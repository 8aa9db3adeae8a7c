package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code baton.http.conflict.key=none}: no {@code key} member, and {@code detail} without the key. */
@BatonTest
@WithConfig("baton.http.conflict.key=None")
class ConflictKeyNoneTest {

    @Inject
    Locks locks;

    @Test
    void theBodySaysNothingOfTheKey() {
        JsonObject body = Conflicts.conflict(locks).body();
        assertThat(body.containsKey("key")).isFalse();
        assertThat(body.getString("detail"))
                .startsWith("The lock was not acquired within 50 ms")
                .endsWith("another owner holds it");
        assertThat(body.getString("message")).isEqualTo(body.getString("detail"));
        assertThat(body.toString()).doesNotContain("ann@example.com", "customer:", "sha256:");
        assertThat(body.getString("type")).isEqualTo(LockTimeoutExceptionMapper.TYPE);
        assertThat(body.getInt("status")).isEqualTo(409);
        assertThat(body.getJsonNumber("timeoutMillis").longValue()).isEqualTo(50);
    }
}
