package dev.baton.examples.helidon.pair.app;

import dev.baton.Exclusive;
import io.helidon.microprofile.scheduling.FixedRate;
import io.helidon.microprofile.scheduling.Scheduled;
import io.helidon.scheduling.CronInvocation;
import io.helidon.scheduling.FixedRateInvocation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;

/**
 * Two jobs of Helidon's own scheduler, each {@code @Exclusive} under its default key
 * ({@code schedule:dev.baton.examples.helidon.pair.app.Jobs.<method>}) and nothing else: Baton reads the period
 * of {@code @FixedRate} and the cron of {@code @Scheduled} itself. Every instance's scheduler fires them, one
 * instance runs each planned time. Each run is written to the shared journal ({@link Journal}), with the
 * invocation Helidon passes.
 */
@ApplicationScoped
public class Jobs {

    @Inject
    Journal journal;

    // tag::jobs[]
    /** Every 2 s from the start of the process (Helidon's fixed rate is not aligned on the clock). */
    @Exclusive
    @FixedRate(value = 2, timeUnit = TimeUnit.SECONDS)
    public void fixedRate(FixedRateInvocation invocation) {
        journal.ran("fixed-rate", "iteration=" + invocation.iteration());
    }

    /** At every even second (Helidon's cron: seconds first, Quartz style). */
    @Exclusive
    @Scheduled("0/2 * * * * ? *")
    public void cron(CronInvocation invocation) {
        journal.ran("cron", "iteration=" + invocation.iteration());
    }
    // end::jobs[]

    /**
     * Every 2 s by the configuration, which Helidon and Baton both read: the annotation's minute is overridden by
     * {@code <class>.configuredRate.schedule.delay} and {@code time-unit} (microprofile-config.properties).
     */
    @Exclusive
    @FixedRate(value = 1, timeUnit = TimeUnit.MINUTES)
    public void configuredRate() {
        journal.ran("configured-rate", "");
    }

    /** At every odd second: the cron is the configuration's {@code pair.cron}. */
    @Exclusive
    @Scheduled("${pair.cron}")
    public void configuredCron() {
        journal.ran("configured-cron", "");
    }
}
