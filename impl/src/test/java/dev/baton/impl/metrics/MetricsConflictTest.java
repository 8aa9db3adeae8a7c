package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.tck.LogCapture;
import io.smallrye.metrics.SharedMetricRegistries;
import org.eclipse.microprofile.metrics.MetricFilter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A registry that already has one of Baton's names as another kind of metric (another library's, an older
 * Baton's): the manager takes its locks without metrics, with a warning, instead of failing.
 */
class MetricsConflictTest {

    private static final String SCOPE = "baton-conflict-test";
    private final MetricRegistry registry = SharedMetricRegistries.getOrCreate(SCOPE);

    @AfterEach
    void drop() {
        registry.removeMatching(MetricFilter.ALL);
        SharedMetricRegistries.drop(SCOPE);
    }

    @Test
    void aNameTakenByAnotherKindOfMetricLeavesTheManagerWithoutMetrics() {
        registry.histogram(
                "baton.lock.acquisitions",
                new Tag("baton_manager", "taken"),
                new Tag("baton_store", "memory"),
                new Tag("baton_outcome", "acquired"));
        try (LogCapture log = LogCapture.start("dev.baton")) {
            MpMetricsMeters meters = MpMetricsMeters.on(registry);
            EngineMetrics metrics = meters.engine("taken", "memory");

            assertThat(metrics).isSameAs(EngineMetrics.NONE);
            MemoryLockStore store = new MemoryLockStore();
            assertThat(meters.metered(store, metrics))
                    .as("nothing to time its calls for")
                    .isSameAs(store);
            assertThat(log.messages())
                    .anySatisfy(line -> assertThat(line)
                            .contains("BATON-060", "lock manager 'taken'", "MicroProfile Metrics", "without metrics"));
        }
    }
}
