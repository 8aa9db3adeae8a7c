package dev.baton.tck.runtime.exclusion;

import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.HolderProbe;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless session bean (a pool of instances, so calls really run in parallel). */
@Stateless
public class EjbWorker implements Worker {

    @Inject
    HolderProbe probe;

    @Override
    @Synchronized("ejb:{key}")
    public void work(String key) {
        probe.hold("ejb:" + key, 100);
    }
}
