package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import io.smallrye.metrics.MetricRegistryProducer;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * No meter carries a key, on MicroProfile Metrics: after real traffic on keys with a marker, every metric of the
 * application registry (its name, tags and metadata) is read for the marker.
 */
@BatonTest
@ExtendWith(EmptyMetricRegistries.class)
@AddBeanClasses(MetricRegistryProducer.class)
@WithConfig({"baton.admin.force-release=true", "baton.metrics.api=microprofile-metrics"})
class MpMetricsCarryNoKeysTest {

    @Inject
    Locks locks;

    @Inject
    MetricRegistry registry;

    @Test
    void noMetricNamesAKey() {
        KeyTraffic.run(locks);

        assertThat(registry.getMetricIDs())
                .extracting(MetricID::getName)
                .as("every meter saw traffic, so every one is read")
                .containsAll(Arrays.stream(LockMeter.values())
                        .map(LockMeter::metricName)
                        .toList());
        List<String> written = new ArrayList<>();
        for (MetricID id : registry.getMetricIDs()) {
            StringBuilder line = new StringBuilder(id.getName());
            for (Tag tag : id.getTagsAsArray()) {
                line.append(' ').append(tag.getTagName()).append('=').append(tag.getTagValue());
            }
            registry.getMetadata(id.getName())
                    .description()
                    .ifPresent(d -> line.append(' ').append(d));
            written.add(line.toString());
        }
        assertThat(written).hasSizeGreaterThanOrEqualTo(LockMeter.values().length);
        assertThat(written).noneSatisfy(line -> assertThat(line).containsIgnoringCase(KeyTraffic.MARKER));
    }
}
