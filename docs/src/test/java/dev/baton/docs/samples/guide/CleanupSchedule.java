package dev.baton.docs.samples.guide;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

@ApplicationScoped
public class CleanupSchedule {

    // tag::executor[]
    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ScheduledExecutorService executor; // the server's ManagedScheduledExecutorService

    @Inject
    Cleanup cleanup;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        executor.scheduleAtFixedRate(cleanup::purge, 5, 5, TimeUnit.MINUTES); // through the bean: @Exclusive applies
    }
    // end::executor[]
}
