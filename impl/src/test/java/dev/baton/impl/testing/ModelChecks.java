package dev.baton.impl.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The budget of the Lincheck tests (the {@code *LincheckTest} classes), in one place: every structure is
 * model-checked with the same modest counts, so that all of them together stay well under two minutes on a
 * 2-core machine. Lincheck needs its test classes public, with a public no-argument constructor.
 */
public final class ModelChecks {

    /** Random scenarios per model-checking run. */
    public static final int ITERATIONS = 4;
    /** Interleavings explored per scenario. */
    public static final int INVOCATIONS = 100;
    /** Random scenarios per stress run, each run this many times on real threads. */
    public static final int STRESS_ITERATIONS = 4;

    public static final int STRESS_INVOCATIONS = 300;

    private ModelChecks() {}

    /** @return model checking: every interleaving switch point of a scenario's threads, up to the budget */
    public static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(ITERATIONS)
                .invocationsPerIteration(INVOCATIONS)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1);
    }

    /** @return stress testing: the same scenarios on real threads, for what the model checker does not see (timeouts) */
    public static StressOptions stress() {
        return new StressOptions()
                .iterations(STRESS_ITERATIONS)
                .invocationsPerIteration(STRESS_INVOCATIONS)
                .threads(3)
                .actorsPerThread(3);
    }

    /**
     * An invariant of a {@code @Validate} method: AssertJ does not run inside Lincheck's instrumented threads.
     *
     * @throws IllegalStateException naming what does not hold
     */
    public static void check(boolean holds, String what) {
        if (!holds) {
            throw new IllegalStateException("does not hold: " + what);
        }
    }

    /**
     * Asserts that Lincheck finds a failing interleaving of {@code test}: for flawed variants, proof that the check
     * bites.
     *
     * @param options the check
     * @param test the test class on the flawed variant
     * @param failure what Lincheck's report must say (its kind of failure, an exception the test throws)
     */
    public static void assertCaught(Options<?, ?> options, Class<?> test, String failure) {
        assertThatThrownBy(() -> options.check(test))
                .as("Lincheck must find the flaw of %s", test.getSimpleName())
                .isInstanceOf(LincheckAssertionError.class)
                .hasMessageContaining(failure);
    }
}
