package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * No meter carries a key, on OpenTelemetry: after real traffic on keys with a marker, every metric Baton registered,
 * every point and every attribute (name and value), and the exemplars' attributes, are read for the marker. A key
 * on a metric attribute would make a series per key (unbounded cardinality) and send request data to the metrics
 * backend.
 */
@BatonTest
@AddBeanClasses(InMemoryTelemetry.class)
@WithConfig({"baton.admin.force-release=true", "baton.metrics.api=opentelemetry"})
class MetricsCarryNoKeysTest {

    @Inject
    Locks locks;

    @Inject
    InMemoryMetricReader reader;

    @Test
    void noMetricNamesAKey() {
        KeyTraffic.run(locks);

        Collection<MetricData> metrics = reader.collectAllMetrics();
        assertThat(metrics)
                .extracting(MetricData::getName)
                .as("every meter saw traffic, so every one is read")
                .containsAll(Arrays.stream(LockMeter.values())
                        .map(LockMeter::metricName)
                        .toList());
        List<String> written = new ArrayList<>();
        for (MetricData metric : metrics) {
            written.add(metric.getName() + " " + metric.getDescription() + " " + metric.getUnit());
            for (PointData point : metric.getData().getPoints()) {
                written.add(metric.getName() + " " + text(point.getAttributes()));
                point.getExemplars()
                        .forEach(e -> written.add(metric.getName() + " " + text(e.getFilteredAttributes())));
            }
        }
        assertThat(written).hasSizeGreaterThan(metrics.size() * 2);
        assertThat(written).noneSatisfy(line -> assertThat(line).containsIgnoringCase(KeyTraffic.MARKER));
    }

    /** The scan reads attribute names and values: a key in either is found. */
    @Test
    void theScanFindsAKeyInAnAttribute() {
        assertThat(text(Attributes.of(AttributeKey.stringKey("baton.key"), KeyTraffic.KEYS.get(0))))
                .contains(KeyTraffic.MARKER);
        assertThat(text(Attributes.of(AttributeKey.stringKey(KeyTraffic.KEYS.get(1)), "x")))
                .contains(KeyTraffic.MARKER);
    }

    private static String text(Attributes attributes) {
        StringBuilder out = new StringBuilder();
        attributes.forEach((key, value) ->
                out.append(key.getKey()).append('=').append(value).append(' '));
        return out.toString();
    }
}
