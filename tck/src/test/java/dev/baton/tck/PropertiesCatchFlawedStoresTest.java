package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.spi.StoreCapability;
import dev.baton.tck.TestLockStore.Flaw;
import dev.baton.tck.properties.ContractViolation;
import dev.baton.tck.properties.StoreSequences;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Proof that the store properties bite: their random sequences pass the TCK's reference store (every capability,
 * none) and fail stores with a flaw that only a certain order of calls shows, each shrunk to the shortest
 * sequence that still fails.
 */
class PropertiesCatchFlawedStoresTest {

    private static final Set<StoreCapability> ALL =
            EnumSet.complementOf(EnumSet.of(StoreCapability.ENDS_WITH_CONNECTION));

    private static final int TRIES = 150;

    @Test
    void theReferenceStoreKeepsTheContractWithEveryCapability() {
        sequences(ALL).check(TRIES, 41);
    }

    @Test
    void theReferenceStoreKeepsTheContractWithNoCapability() {
        sequences(EnumSet.noneOf(StoreCapability.class)).check(TRIES, 41);
    }

    @Test
    void aTokenCounterResetByReleaseIsCaughtInThreeCalls() {
        assertThatThrownBy(() -> sequences(ALL, Flaw.RELEASE_RESETS_COUNTER).check(TRIES, 41))
                .isInstanceOfSatisfying(
                        ContractViolation.class,
                        violation -> assertThat(violation.length())
                                .as("acquire, release, acquire: %s", violation.getMessage())
                                .isEqualTo(3))
                .hasMessageContaining("must be positive and greater than");
    }

    @Test
    void aWaiterThatKeepsItsTurnAgainstALongerWaiterIsCaught() {
        assertThatThrownBy(() -> sequences(ALL, Flaw.FIRST_WAITER_KEEPS_TURN).check(TRIES, 41))
                .isInstanceOfSatisfying(
                        ContractViolation.class,
                        violation -> assertThat(violation.length())
                                .as("a key held, a waiter's turn, a longer waiter's claim: %s", violation.getMessage())
                                .isLessThanOrEqualTo(3));
    }

    private static StoreSequences sequences(Set<StoreCapability> capabilities, Flaw... flaws) {
        TestLockStore.Backend backend = new TestLockStore.Backend();
        Set<Flaw> with = flaws.length == 0 ? EnumSet.noneOf(Flaw.class) : EnumSet.copyOf(Set.of(flaws));
        return new StoreSequences(() -> new TestLockStore(backend, capabilities, with), null);
    }
}
