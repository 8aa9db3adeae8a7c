package dev.baton.impl.health;

import dev.baton.impl.cdi.LockRuntime;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness {@value #NAME}: UP when the store of every lock manager that has one answers a probe
 * ({@link StoreProbe}) within {@value #PROBE_TIMEOUT_MILLIS} ms. Data per manager ({@code default} for the
 * default one): {@code <manager>.store}, {@code <manager>.status} (UP or DOWN), {@code <manager>.millis}
 * (how long the probe took) and, when DOWN, {@code <manager>.error}. A manager not used yet is started
 * (its store connects) by the first probe.
 *
 * <p>Health answers are often read by more than the operators (a load balancer, a status page), and a store's
 * description and a driver's error text may hold a URL or a host name. So unless {@code baton.health.details} is
 * {@code true}, {@code <manager>.store} is the store's kind (its description up to the first {@code (}, e.g.
 * {@code redis}) and {@code <manager>.error} the failure's type (e.g. {@code dev.baton.LockStoreException}) or
 * Baton's own words (a probe not answered in time); with it, the store's full description and the failure as
 * {@link Throwable#toString()} writes it.
 */
@Readiness
public class StoresReadinessCheck extends BatonHealthCheck implements HealthCheck {

    /** The check's name. */
    public static final String NAME = "baton-stores";
    /** How long a store may take to answer the probe. */
    static final long PROBE_TIMEOUT_MILLIS = 2_000;

    /**
     * Each probe on a plain daemon thread of its own, not on the store-call pool: the server calls health
     * checks on threads of its own, outside the application, and a managed thread started from there never
     * ran the probe on Payara Micro (readiness stayed DOWN: "the previous probe has not come back"). Probes
     * are rare (one per health request, none while one is out).
     */
    private static final Executor PROBE_THREAD = probe -> {
        Thread thread = new Thread(probe, "baton-health-probe");
        thread.setDaemon(true);
        thread.start();
    };

    private final Map<String, StoreProbe> probes = new ConcurrentHashMap<>();

    @Inject
    LockRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
        boolean up = true;
        boolean details = runtime.config().healthDetails();
        for (String manager : runtime.managersWithStore()) {
            String name = manager.isEmpty() ? "default" : manager;
            StoreProbe.Result result;
            String store;
            try {
                var engine = runtime.engine(manager);
                store = String.valueOf(engine.store());
                result = probes.computeIfAbsent(manager, m -> new StoreProbe())
                        .probe(engine.store(), PROBE_TIMEOUT_MILLIS, PROBE_THREAD);
            } catch (RuntimeException e) {
                store = "(not started)";
                result = StoreProbe.Result.failed(0, e);
            }
            up &= result.up();
            response.withData(name + ".store", details ? store : kind(store))
                    .withData(name + ".status", result.up() ? "UP" : "DOWN")
                    .withData(name + ".millis", result.millis());
            if (!result.up()) {
                response.withData(name + ".error", details ? result.detail() : result.error());
            }
        }
        return response.status(up).build();
    }

    /** @return which store a description names: {@code redis (redis://cache:6379, ...)} is {@code redis} */
    static String kind(String description) {
        int open = description.indexOf('(');
        return open <= 0 ? description : description.substring(0, open).trim();
    }
}
