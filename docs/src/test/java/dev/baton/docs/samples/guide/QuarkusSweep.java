package dev.baton.docs.samples.guide;

import dev.baton.Exclusive;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class QuarkusSweep {

    // tag::quarkus-schedule[]
    @Exclusive // one run per 5-minute period aligned on the epoch, in whichever instance fires first in it
    @Scheduled(every = "5m")
    public void sweep() {
        // ...
    }

    @Exclusive // one run per planned time of the cron expression
    @Scheduled(cron = "0 0 2 * * ?")
    public void nightly() {
        // ...
    }
    // end::quarkus-schedule[]
}
