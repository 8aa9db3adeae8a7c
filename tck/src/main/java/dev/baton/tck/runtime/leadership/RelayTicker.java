package dev.baton.tck.runtime.leadership;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;

/**
 * The platform's scheduler: a non-persistent EJB interval timer every {@value #PERIOD_MILLIS} ms, in every
 * instance, that calls {@link Relay#relay()}; a call that skipped (returned null) is journaled as
 * {@code skipped}, so the journal shows a stand-by's timer firing while its calls do nothing.
 */
@Singleton
@Startup
public class RelayTicker {

    /** The timer's period. */
    static final long PERIOD_MILLIS = 200;

    @Resource
    TimerService timers;

    @Inject
    Relay relay;

    @PostConstruct
    void start() {
        timers.createIntervalTimer(PERIOD_MILLIS, PERIOD_MILLIS, new TimerConfig(null, false));
    }

    /** No checked exception: the Enterprise Beans specification forbids them on a timeout method. */
    @Timeout
    void tick() {
        long start = System.nanoTime();
        if (relay.relay() == null) {
            synchronized (TermJournal.WRITING) {
                TermJournal.append("skipped", 0, start, "-");
            }
        }
    }
}
