package dev.baton.impl.metrics;

import io.smallrye.metrics.SharedMetricRegistries;
import org.eclipse.microprofile.metrics.MetricFilter;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * SmallRye Metrics keeps its registries in static fields, shared by every container of the test JVM: a test
 * class with this extension starts and leaves the application registry empty.
 */
public class EmptyMetricRegistries implements BeforeAllCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        empty();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        empty();
    }

    /** Dropping the registry alone would leave its meters in Micrometer's global registry, counts and all. */
    private static void empty() {
        SharedMetricRegistries.getOrCreate(MetricRegistry.APPLICATION_SCOPE).removeMatching(MetricFilter.ALL);
        SharedMetricRegistries.drop(MetricRegistry.APPLICATION_SCOPE);
    }

    /**
     * @param registry the application registry
     * @param manager the manager as in the metrics
     * @param outcome {@code acquired}, {@code timed_out} or {@code failed}
     * @return the count of {@code baton.lock.acquisitions} with these tags on the memory store
     */
    static long acquisitions(MetricRegistry registry, String manager, String outcome) {
        return registry.getCounter(new MetricID(
                        "baton.lock.acquisitions",
                        new Tag("baton_manager", manager),
                        new Tag("baton_store", "memory"),
                        new Tag("baton_outcome", outcome)))
                .getCount();
    }
}
