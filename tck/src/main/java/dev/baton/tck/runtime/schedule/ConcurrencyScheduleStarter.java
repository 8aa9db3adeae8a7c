package dev.baton.tck.runtime.schedule;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/** Starts the {@link ConcurrencyScheduledJob}'s schedule when the application starts (a call through its proxy). */
@ApplicationScoped
public class ConcurrencyScheduleStarter {

    void start(@Observes @Initialized(ApplicationScoped.class) Object started, ConcurrencyScheduledJob job) {
        job.run();
    }
}
