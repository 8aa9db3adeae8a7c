package dev.baton.impl.health;

import dev.baton.impl.cdi.LockRuntime;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.Vitals;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness {@value #NAME}: DOWN when a lock manager's renewals are stalled (a renewal overdue by more
 * than a third of its lock's ttl, not sent) or a held lock was lost without its holder being told
 * ({@link Vitals}); a slow or unreachable store is readiness' concern, not this. Data per started manager
 * ({@code default} for the default one): {@code <manager>.held}, {@code <manager>.overdueRenewals},
 * {@code <manager>.mostOverdueMillis} and {@code <manager>.untoldLosses}. Reading it starts no manager.
 */
@Liveness
public class RenewalsLivenessCheck extends BatonHealthCheck implements HealthCheck {

    /** The check's name. */
    public static final String NAME = "baton-renewals";

    @Inject
    LockRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
        boolean live = true;
        for (LockEngine engine : runtime.startedEngines()) {
            String name = engine.name().isEmpty() ? "default" : engine.name();
            Vitals vitals = Vitals.of(engine);
            live &= vitals.live();
            response.withData(name + ".held", vitals.held())
                    .withData(name + ".overdueRenewals", vitals.overdueRenewals())
                    .withData(name + ".mostOverdueMillis", vitals.mostOverdueMillis())
                    .withData(name + ".untoldLosses", vitals.untoldLosses());
        }
        return response.status(live).build();
    }
}
