package dev.baton.docs.samples.guide;

import dev.baton.Exclusive;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class Cleanup {

    // tag::period[]
    @Exclusive(period = "5m") // called every 5 minutes by a scheduler of the application
    public void purge() {
        // ...
    }
    // end::period[]
}
