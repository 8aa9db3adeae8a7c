package dev.baton.docs.samples.guide;

import dev.baton.Exclusive;
import jakarta.enterprise.context.ApplicationScoped;

// tag::period[]
@ApplicationScoped
public class Cleanup {

    @Exclusive(period = "5m") // called every 5 minutes by a scheduler of the application
    public void purge() {
        // ...
    }
}
// end::period[]
