package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockTimeoutExceptionMapperTest {

    @Test
    void theBodyNamesTheKeyAndEscapesIt() {
        String body = LockTimeoutExceptionMapper.body(new LockTimeoutException("order:\"7\"\\x", Duration.ofMillis(250)));
        assertThat(body).startsWith("{\"error\":\"lock-timeout\",\"key\":\"order:\\\"7\\\"\\\\x\",\"waitedMillis\":250,");
        assertThat(body).contains("was not acquired within 250 ms");
    }
}
