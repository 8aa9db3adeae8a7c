package dev.baton.tck.runtime.exclusion;

import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.HolderProbe;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** An application-scoped CDI bean whose method is {@code @Synchronized} per key. */
@ApplicationScoped
public class CdiWorker implements Worker {

    @Inject
    HolderProbe probe;

    @Override
    @Synchronized("cdi:{key}")
    public void work(String key) {
        probe.hold("cdi:" + key, 100);
    }
}
