package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code baton.http.conflict.key=hash}: the body names the key's hash, the text of hashed log lines. */
@BatonTest
@WithConfig("baton.http.conflict.key=hash")
class ConflictKeyHashTest {

    @Inject
    Locks locks;

    @Test
    void theBodyNamesTheKeysHash() {
        JsonObject body = Conflicts.conflict(locks).body();
        // printf '%s' customer:ann@example.com | sha256sum
        assertThat(body.getString("key")).isEqualTo("sha256:3d3fa0fad987f9a9");
        assertThat(body.getString("detail"))
                .startsWith("Lock 'sha256:3d3fa0fad987f9a9' was not acquired within 50 ms")
                .endsWith("another owner holds it");
        assertThat(body.getString("message")).isEqualTo(body.getString("detail"));
        assertThat(body.toString()).doesNotContain("ann@example.com");
        assertThat(body.getJsonNumber("remainingLeaseMillis")).isNotNull();
    }
}
