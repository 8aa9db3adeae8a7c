package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.config.PollPolicy;
import dev.baton.spi.AcquireResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** The pauses between polls, exactly: the jitter's random source is replaced by a fixed choice. */
class PollingScheduleTest {

    /** Takes nothing off: every pause is its full step. */
    private static final LongUnaryOperator NONE_TAKEN = bound -> 0;
    /** Takes the most the jitter allows off every pause. */
    private static final LongUnaryOperator ALL_TAKEN = bound -> bound - 1;

    private static final AcquireResult BUSY = AcquireResult.notAcquired();

    private static List<Long> millis(Polling polling, PollPolicy policy, AcquireResult answer, int attempts) {
        List<Long> pauses = new ArrayList<>();
        for (int attempt = 0; attempt < attempts; attempt++) {
            pauses.add(TimeUnit.NANOSECONDS.toMicros(polling.pauseNanos(policy, attempt, answer)) / 1_000);
        }
        return pauses;
    }

    private static List<Long> micros(Polling polling, PollPolicy policy, AcquireResult answer, int attempts) {
        List<Long> pauses = new ArrayList<>();
        for (int attempt = 0; attempt < attempts; attempt++) {
            pauses.add(TimeUnit.NANOSECONDS.toMicros(polling.pauseNanos(policy, attempt, answer)));
        }
        return pauses;
    }

    @Test
    void theDefaultPolicyDoublesFromFiveMillisecondsToFiveHundredAndJitterTakesUpToHalfOff() {
        assertThat(millis(new Polling(false, NONE_TAKEN), PollPolicy.DEFAULT, BUSY, 10))
                .containsExactly(5L, 10L, 20L, 40L, 80L, 160L, 320L, 500L, 500L, 500L);
        assertThat(micros(new Polling(false, ALL_TAKEN), PollPolicy.DEFAULT, BUSY, 9))
                .containsExactly(2_500L, 5_000L, 10_000L, 20_000L, 40_000L, 80_000L, 160_000L, 250_000L, 250_000L);
    }

    @Test
    void theDefaultCeilings() {
        Polling plain = new Polling(false, NONE_TAKEN);
        Polling turns = new Polling(true, NONE_TAKEN);
        assertThat(plain.ceilingNanos(PollPolicy.DEFAULT, false)).isEqualTo(ms(500));
        // Without notifications, every waiter polls at the policy's first step: the waiter in turn because its
        // poll is the hand-off's delay, the others to claim the turn within a short section and a hand-off.
        assertThat(turns.ceilingNanos(PollPolicy.DEFAULT, false)).isEqualTo(ms(5));
        assertThat(turns.ceilingNanos(PollPolicy.DEFAULT, true)).isEqualTo(ms(5));
        plain.notified(true);
        turns.notified(true);
        assertThat(plain.ceilingNanos(PollPolicy.DEFAULT, false)).isEqualTo(ms(2_000));
        assertThat(turns.ceilingNanos(PollPolicy.DEFAULT, false)).isEqualTo(ms(100));
        assertThat(turns.ceilingNanos(PollPolicy.DEFAULT, true)).isEqualTo(ms(250));
        assertThat(millis(turns, PollPolicy.DEFAULT, AcquireResult.nextInTurn(), 8))
                .containsExactly(5L, 10L, 20L, 40L, 80L, 160L, 250L, 250L);
    }

    @Test
    void aConfiguredPolicySetsTheStepsAndTheCeiling() {
        PollPolicy fast = new PollPolicy(2, 20, 0);
        assertThat(millis(new Polling(false, ALL_TAKEN), fast, BUSY, 6)).containsExactly(2L, 4L, 8L, 16L, 20L, 20L);
        PollPolicy slow = new PollPolicy(300, 1_000, 0);
        assertThat(millis(new Polling(false, NONE_TAKEN), slow, BUSY, 4)).containsExactly(300L, 600L, 1_000L, 1_000L);
    }

    @Test
    void withNotificationsTheCeilingIsFourTimesTheMaximum() {
        Polling polling = new Polling(false, NONE_TAKEN);
        polling.notified(true);
        assertThat(millis(polling, new PollPolicy(10, 30, 0), BUSY, 6)).containsExactly(10L, 20L, 40L, 80L, 120L, 120L);
    }

    @Test
    void aLowerMaximumLowersTheTurnCeilingsAndAHigherMinimumRaisesThem() {
        Polling turns = new Polling(true, NONE_TAKEN);
        assertThat(turns.ceilingNanos(new PollPolicy(1, 10, 0.5), false)).isEqualTo(ms(5));
        assertThat(turns.ceilingNanos(new PollPolicy(1, 10, 0.5), true)).isEqualTo(ms(5));
        assertThat(turns.ceilingNanos(new PollPolicy(1, 3, 0.5), true)).isEqualTo(ms(3));
        assertThat(turns.ceilingNanos(new PollPolicy(1, 5_000, 0.5), false)).isEqualTo(ms(5));
        assertThat(turns.ceilingNanos(new PollPolicy(1, 3, 0.5), false)).isEqualTo(ms(3));
        assertThat(turns.ceilingNanos(new PollPolicy(100, 1_000, 0.5), true)).isEqualTo(ms(100));
        assertThat(millis(turns, new PollPolicy(100, 1_000, 0), AcquireResult.nextInTurn(), 3))
                .containsExactly(100L, 100L, 100L);
    }

    @Test
    void theJitterBoundsWhatTheRandomSourceMayTakeOff() {
        List<Long> bounds = new ArrayList<>();
        Polling polling = new Polling(false, bound -> {
            bounds.add(bound);
            return 0;
        });
        polling.pauseNanos(new PollPolicy(8, 100, 0.25), 0, BUSY);
        polling.pauseNanos(new PollPolicy(8, 100, 0), 0, BUSY);
        polling.pauseNanos(new PollPolicy(8, 100, 1), 1, BUSY);
        assertThat(bounds).containsExactly(ms(2) + 1, 1L, ms(16) + 1);
        // Full jitter may take a whole pause off: the floor keeps a store that answers at once from being spun on.
        assertThat(new Polling(false, ALL_TAKEN).pauseNanos(new PollPolicy(8, 100, 1), 3, BUSY))
                .isEqualTo(TimeUnit.MICROSECONDS.toNanos(100));
    }

    @Test
    void aPauseNeverOutlastsTheHoldersRemainingLease() {
        Polling polling = new Polling(false, NONE_TAKEN);
        assertThat(polling.pauseNanos(PollPolicy.DEFAULT, 9, AcquireResult.notAcquired(3)))
                .isEqualTo(ms(4));
        assertThat(polling.pauseNanos(new PollPolicy(50, 50, 0), 0, AcquireResult.notAcquired(3)))
                .isEqualTo(ms(4));
        assertThat(polling.pauseNanos(new PollPolicy(50, 50, 0), 0, AcquireResult.notAcquired(80)))
                .isEqualTo(ms(50));
    }

    @Test
    void theLongestPoliciesDoNotOverflow() {
        long year = TimeUnit.DAYS.toMillis(365);
        Polling polling = new Polling(false, NONE_TAKEN);
        assertThat(polling.pauseNanos(new PollPolicy(1, year, 0.5), 1_000, BUSY))
                .isEqualTo(ms(year));
        assertThat(polling.pauseNanos(new PollPolicy(year, year, 0.5), Integer.MAX_VALUE, BUSY))
                .isEqualTo(ms(year));
        polling.notified(true);
        assertThat(polling.pauseNanos(new PollPolicy(year - 1, year, 0), 3, BUSY))
                .isEqualTo(ms(4 * year));
    }

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }
}
