package dev.baton.tck.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import dev.baton.tck.runtime.conflict.GateResource;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Baton's metrics as the server exposes them: on a lock manager of its own ({@value #MANAGER}), a scripted
 * workload through {@link GateResource} — a holder, {@value #TIMEOUTS} requests refused while it holds the
 * key, {@value #FREE_REQUESTS} requests on free keys — and the server's {@code /metrics} (Prometheus text) shows
 * exactly {@code N} = {@value #FREE_REQUESTS} + 1 acquisitions and {@code M} = {@value #TIMEOUTS} timeouts more
 * than before it, none failed, and no lock held after it. Counted as differences to a scrape before the
 * workload, so what earlier deployments left in a server-wide registry does not count.
 */
@Tag(RuntimeTck.TAG_METRICS)
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class MetricsTest {

    static final String MANAGER = "tck-metrics";
    static final int TIMEOUTS = 3;
    static final int FREE_REQUESTS = 4;

    /** The server's names of Baton's metrics: {@link RuntimeTck#metricsPrefix()} before their own. */
    private static final String ACQUISITIONS = RuntimeTck.metricsPrefix() + "baton_lock_acquisitions";

    private static final String HELD = RuntimeTck.metricsPrefix() + "baton_locks_held";
    private static final Map<String, String> ON_MANAGER = Map.of("baton_manager", MANAGER);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario("baton-tck-metrics").addClasses(GateResource.class),
                "baton.store",
                "memory",
                "baton.managers",
                MANAGER,
                // /metrics is MicroProfile Metrics' endpoint; on Payara Micro 6 the OpenTelemetry bean also meters
                // (exported nowhere by default), and auto would choose it
                "baton.metrics.api",
                "microprofile-metrics",
                GateResource.class.getName() + "/Synchronized/manager",
                MANAGER);
    }

    @ArquillianResource
    URL base;

    @Test
    @TckRule(id = "R-8.2-03", spec = "spec-runtime-metrics")
    void theServersMetricsCountTheAcquisitionsAndTimeoutsExactly() {
        PrometheusText before = scrape();

        CompletableFuture<Http.Response> holder =
                CompletableFuture.supplyAsync(() -> Http.post(base, "api/gate/hold/busy"));
        await().atMost(RuntimeTck.scaled(Duration.ofSeconds(30)))
                .until(() -> holder.isDone() || "true".equals(Http.getBody(base, "api/gate/entered/busy")));
        assertThat(holder).as("the holder must still be inside").isNotDone();
        for (int i = 0; i < TIMEOUTS; i++) {
            Http.Response refused = Http.post(base, "api/gate/try/busy");
            assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        }
        Http.post(base, "api/gate/open/busy");
        assertThat(holder.join().body()).isEqualTo("released");
        for (int i = 0; i < FREE_REQUESTS; i++) {
            Http.Response free = Http.post(base, "api/gate/try/free-" + i);
            assertThat(free.status()).as(free.body()).isEqualTo(200);
        }

        // the last release may still be on its way out of the request when its answer arrives
        await().atMost(RuntimeTck.scaled(Duration.ofSeconds(10))).untilAsserted(() -> {
            PrometheusText now = scrape();
            assertThat(now.find(HELD, ON_MANAGER))
                    .as(
                            "the gauge of locks held on %s among Baton's samples %s",
                            MANAGER,
                            now.samples().stream()
                                    .filter(sample -> sample.name().contains("baton"))
                                    .toList())
                    .singleElement()
                    .satisfies(held -> assertThat(held.value()).isZero());
        });
        String exposition = scrapeText();
        // for the record (the report's output file): what the server serves of Baton's metrics
        exposition
                .lines()
                .filter(line -> line.contains("baton_") && line.contains(MANAGER))
                .forEach(line -> System.out.println("scraped: " + line));
        PrometheusText after = PrometheusText.parse(exposition);
        assertThat(increase(before, after, "acquired"))
                .as("acquisitions (the holder and the requests on free keys)")
                .isEqualTo(FREE_REQUESTS + 1.0);
        assertThat(increase(before, after, "timed_out"))
                .as("timeouts (refused while held)")
                .isEqualTo(TIMEOUTS);
        assertThat(increase(before, after, "failed")).as("failed acquisitions").isZero();
    }

    private static double increase(PrometheusText before, PrometheusText after, String outcome) {
        Map<String, String> labels = Map.of("baton_manager", MANAGER, "baton_outcome", outcome);
        return after.counter(ACQUISITIONS, labels) - before.counter(ACQUISITIONS, labels);
    }

    /** {@code GET} the server's metrics ({@link RuntimeTck#metricsUrl}, by default {@code /metrics} of the server), parsed. */
    private PrometheusText scrape() {
        return PrometheusText.parse(scrapeText());
    }

    private String scrapeText() {
        URI url = RuntimeTck.metricsUrl(base);
        Http.Response metrics = Http.get(url);
        assertThat(metrics.status()).as("GET %s: %s", url, metrics.body()).isEqualTo(200);
        return metrics.body();
    }
}
