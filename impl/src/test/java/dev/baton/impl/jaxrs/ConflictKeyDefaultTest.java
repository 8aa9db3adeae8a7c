package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Without {@code baton.http.conflict.key} the 409 body names the key, as it did before the setting. */
@BatonTest
class ConflictKeyDefaultTest {

    @Inject
    Locks locks;

    @Test
    void theBodyNamesTheKey() {
        Conflicts.Answer answer = Conflicts.conflict(locks);
        JsonObject body = answer.body();
        assertThat(body.getString("key")).isEqualTo(Conflicts.KEY);
        assertThat(body.getString("detail"))
                .isEqualTo(answer.exception().getMessage())
                .startsWith("Lock '" + Conflicts.KEY + "' was not acquired within 50 ms");
        assertThat(body.getString("message")).isEqualTo(body.getString("detail"));
    }
}
