package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Baton's MicroProfile Health checks on Quarkus, where only the build-compatible extension registers them: the
 * store's readiness and the renewals' liveness answer at Quarkus' health endpoints, with the data they give on
 * every other runtime.
 */
@QuarkusTest
@WithTestResource(PostgresResource.class)
class HealthChecksTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void theStoresReadinessCheckProbesTheJpaStore() throws Exception {
        HttpResponse<String> ready = Http.get(uri("q/health/ready"));
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(ready.body())
                .contains("\"name\": \"baton-stores\"")
                .contains("\"default.store\": \"")
                .contains("\"default.status\": \"UP\"");
    }

    @Test
    void theRenewalsLivenessCheckCountsHeldLocks() throws Exception {
        // One lock taken and released first, so the default manager has started and is reported (the example's
        // leader election holds a lock of its own).
        assertThat(Http.post(uri("seats/h-" + UUID.randomUUID())).statusCode()).isEqualTo(200);
        HttpResponse<String> live = Http.get(uri("q/health/live"));
        assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
        assertThat(live.body())
                .contains("\"name\": \"baton-renewals\"")
                .containsPattern("\"default\\.held\": \\d+")
                .contains("\"default.overdueRenewals\": 0")
                .contains("\"default.untoldLosses\": 0");
    }

    private URI uri(String path) throws Exception {
        return base.toURI().resolve(path);
    }
}
