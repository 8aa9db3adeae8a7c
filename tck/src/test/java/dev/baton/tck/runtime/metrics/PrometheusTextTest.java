package dev.baton.tck.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exposition formats the servers answer {@code /metrics} with, read as {@link MetricsTest} reads them. */
class PrometheusTextTest {

    /** As SmallRye Metrics 5 (Payara, Open Liberty) writes it: Micrometer's {@code _total}, the scope tag. */
    static final String MICROPROFILE_METRICS = """
            # HELP baton_lock_acquisitions_total Lock acquisitions, by outcome: acquired, timed_out, failed
            # TYPE baton_lock_acquisitions_total counter
            baton_lock_acquisitions_total{baton_manager="tck-metrics",baton_outcome="acquired",baton_store="memory",mp_scope="application",} 5.0
            baton_lock_acquisitions_total{baton_manager="tck-metrics",baton_outcome="timed_out",baton_store="memory",mp_scope="application",} 3.0
            baton_lock_acquisitions_total{baton_manager="default",baton_outcome="acquired",baton_store="memory",mp_scope="application",} 17.0
            # TYPE baton_locks_held gauge
            baton_locks_held{baton_manager="tck-metrics",baton_store="memory",mp_scope="application",} 0.0
            # TYPE baton_lock_wait_duration_seconds summary
            baton_lock_wait_duration_seconds{baton_manager="tck-metrics",baton_outcome="acquired",mp_scope="application",quantile="0.5",} NaN
            baton_lock_wait_duration_seconds_count{baton_manager="tck-metrics",baton_outcome="acquired",mp_scope="application",} 5.0
            baton_lock_wait_duration_seconds_max{baton_manager="tck-metrics",baton_outcome="acquired",mp_scope="application",} +Inf
            """;

    /** As OpenTelemetry's Prometheus exporter and OpenMetrics write it: no trailing comma, a timestamp, {@code # EOF}. */
    static final String OPEN_METRICS = """
            # TYPE baton_lock_acquisitions counter
            baton_lock_acquisitions_total{baton_manager="tck-metrics", baton_outcome="acquired"} 6 1700000000000
            baton_lock_acquisitions_created{baton_manager="tck-metrics",baton_outcome="acquired"} 1.7e9
            baton_lock_losses_total{baton_manager="a\\\\b \\"quoted\\"\\nline",baton_loss_reason="disowned"} 1
            up 1
            # EOF
            """;

    @Test
    void countersAreSummedOverTheSamplesWithTheLabelsWithOrWithoutTotal() {
        PrometheusText text = PrometheusText.parse(MICROPROFILE_METRICS);

        assertThat(text.counter(
                        "baton_lock_acquisitions", Map.of("baton_manager", "tck-metrics", "baton_outcome", "acquired")))
                .isEqualTo(5.0);
        assertThat(text.counter("baton_lock_acquisitions", Map.of("baton_outcome", "acquired")))
                .as("over both managers")
                .isEqualTo(22.0);
        assertThat(text.counter(
                        "baton_lock_acquisitions", Map.of("baton_manager", "tck-metrics", "baton_outcome", "failed")))
                .as("no sample: 0")
                .isZero();
        assertThat(text.counter("baton_lock_acquisitions_total", Map.of()))
                .as("the suffix is not added twice")
                .isEqualTo(25.0);
        assertThat(PrometheusText.parse("baton_lock_acquisitions{baton_outcome=\"acquired\"} 4\n")
                        .counter("baton_lock_acquisitions", Map.of("baton_outcome", "acquired")))
                .as("without the suffix")
                .isEqualTo(4.0);
    }

    @Test
    void gaugesSummariesAndSpecialValues() {
        PrometheusText text = PrometheusText.parse(MICROPROFILE_METRICS);

        assertThat(text.find("baton_locks_held", Map.of("baton_manager", "tck-metrics")))
                .singleElement()
                .satisfies(held -> {
                    assertThat(held.value()).isZero();
                    assertThat(held.labels())
                            .containsExactly(
                                    Map.entry("baton_manager", "tck-metrics"),
                                    Map.entry("baton_store", "memory"),
                                    Map.entry("mp_scope", "application"));
                });
        assertThat(text.find("baton_lock_wait_duration_seconds_count", Map.of())
                        .get(0)
                        .value())
                .isEqualTo(5.0);
        assertThat(text.find("baton_lock_wait_duration_seconds", Map.of("quantile", "0.5"))
                        .get(0)
                        .value())
                .isNaN();
        assertThat(text.find("baton_lock_wait_duration_seconds_max", Map.of())
                        .get(0)
                        .value())
                .isInfinite();
        assertThat(text.find("baton_locks_held", Map.of("baton_manager", "other")))
                .isEmpty();
    }

    @Test
    void openMetricsLinesTimestampsAndEscapes() {
        PrometheusText text = PrometheusText.parse(OPEN_METRICS);

        assertThat(text.samples()).hasSize(4);
        assertThat(text.counter("baton_lock_acquisitions", Map.of("baton_manager", "tck-metrics")))
                .as("the timestamp is not the value")
                .isEqualTo(6.0);
        assertThat(text.samples().get(1).value()).isEqualTo(1.7e9);
        assertThat(text.samples().get(2).labels().get("baton_manager")).isEqualTo("a\\b \"quoted\"\nline");
        assertThat(text.find("up", Map.of()))
                .singleElement()
                .satisfies(up -> assertThat(up.labels()).isEmpty());
    }

    @Test
    void aLineThatIsNoSampleIsReportedWithItsNumber() {
        assertThatThrownBy(() -> PrometheusText.parse("ok 1\nbroken{a=\"1\" 2\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2")
                .hasMessageContaining("broken{a=\"1\" 2");
        assertThatThrownBy(() -> PrometheusText.parse("x{a=\"1} 2")).hasMessageContaining("unterminated label value");
        assertThatThrownBy(() -> PrometheusText.parse("x{a=\"\\t\"} 2")).hasMessageContaining("unknown escape \\t");
        assertThatThrownBy(() -> PrometheusText.parse("x 1 2 3")).hasMessageContaining("at most a timestamp");
        assertThatThrownBy(() -> PrometheusText.parse("x one")).hasMessageContaining("'one' is not a number");
        assertThatThrownBy(() -> PrometheusText.parse("x{a=\"1\",a=\"2\"} 1")).hasMessageContaining("label a twice");
        assertThatThrownBy(() -> PrometheusText.parse("9x 1")).hasMessageContaining("metric name at column 1");
        assertThatThrownBy(() -> PrometheusText.parse("x")).hasMessageContaining("expected a value");
    }
}
