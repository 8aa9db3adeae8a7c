package dev.baton.impl.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockTimeoutExceptionMapperTest {

    @Test
    void theBodyNamesTheKeyAndEscapesIt() {
        String body = LockTimeoutExceptionMapper.body(new LockTimeoutException("order:\"7\"\\x", Duration.ofMillis(250)));
        assertThat(body).startsWith("{\"error\":\"lock-timeout\",\"key\":\"order:\\\"7\\\"\\\\x\",\"timeoutMillis\":250,");
        assertThat(body).contains("was not acquired within 250 ms");
    }

    @Test
    void theBodyCarriesTheTimeoutAndTheWaitAsTheExceptionDoes() {
        LockTimeoutException exception = new LockTimeoutException("k", Duration.ofMillis(3_000), Duration.ofMillis(3_412));

        String body = LockTimeoutExceptionMapper.body(exception);

        assertThat(exception.getTimeout()).isEqualTo(Duration.ofMillis(3_000));
        assertThat(exception.getWaited()).isEqualTo(Duration.ofMillis(3_412));
        assertThat(body).contains("\"timeoutMillis\":3000,\"waitedMillis\":3412,")
                .contains("was not acquired within 3000 ms (waited 3412 ms)");
    }

    @Test
    void aCallerThatDidNotWaitHasATimeoutOfZero() {
        String body = LockTimeoutExceptionMapper.body(new LockTimeoutException("k", Duration.ZERO, Duration.ofMillis(4)));

        assertThat(body).contains("\"timeoutMillis\":0,\"waitedMillis\":4,").contains("held by another owner (not waiting)");
    }
}
