package dev.baton.docs.samples.guide;

import dev.baton.Exclusive;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;

// tag::ejb-schedule[]
@Singleton // or @Stateless
public class Reports {

    @Exclusive // key schedule:dev.baton.docs.samples.guide.Reports.nightly
    @Schedule(hour = "2", persistent = false) // every instance's timer fires; one instance runs it
    public void nightly() {
        // ...
    }
}
// end::ejb-schedule[]
