package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link StoreCapability#HAND_OVER}, run only for stores that declare it: a held key passes from its
 * owner to the next acquisition in one atomic step, with a greater token, unless another waiter's turn keeps it; a
 * caller that does not hold the key hands nothing over, and on a free key its hand-over is the next owner's
 * acquisition; only exclusive acquisitions without a turn take a key so.
 *
 * <p>Run by {@link LockStoreContract.HandOver}, tagged {@value ContractTags#HAND_OVER}.
 */
abstract class HandOverRules extends ContractRules {

    @BeforeEach
    void onlyWhereDeclared() {
        assumeCapability(StoreCapability.HAND_OVER);
    }

    private static Acquisition next(String key, String owner) {
        return Acquisition.of(key, owner, LONG_TTL);
    }

    @Test
    @TckRule(id = "S-3.7-01", spec = "spec-store-handover-passes")
    void aHeldKeyPassesToTheNextOwnerWithAGreaterToken() {
        String key = key("passed");
        String owner = newOwner();
        long first = acquired(key, owner, LONG_TTL);
        String nextOwner = newOwner();

        HandOverResult result = store().handOver(owner, next(key, nextOwner));

        assertThat(result.released())
                .as("the owner's lock on %s was released", describe(key))
                .isTrue();
        assertThat(result.next().isAcquired())
                .as("the next owner got %s: %s", describe(key), result.next())
                .isTrue();
        assertThat(result.next().fencingToken()).as("the handed-over token").isGreaterThan(first);
        assertThat(store().renew(new Renewal(key, owner, LONG_TTL, BOUND_MILLIS)))
                .as("the former owner's renewal")
                .isFalse();
        assertThat(store().release(key, owner)).as("the former owner's release").isFalse();
        assertThat(store().acquire(next(key, newOwner())).isAcquired())
                .as("a third caller while the next owner holds %s", describe(key))
                .isFalse();
        assertThat(store().renew(new Renewal(key, nextOwner, LONG_TTL, BOUND_MILLIS)))
                .as("the next owner's renewal")
                .isTrue();
        if (declares(StoreCapability.INSPECT)) {
            assertThat(store().inspect(key)).hasValueSatisfying(holder -> {
                assertThat(holder.owner()).isEqualTo(nextOwner);
                assertThat(holder.fencingToken()).isEqualTo(result.next().fencingToken());
            });
        }
        assertThat(store().release(key, nextOwner))
                .as("the next owner's release")
                .isTrue();
        assertThat(acquired(key, newOwner(), LONG_TTL))
                .as("the token after")
                .isGreaterThan(result.next().fencingToken());
    }

    @Test
    @TckRule(id = "S-3.7-02", spec = "spec-store-handover-turn")
    void aKeyKeptForAnotherWaitersTurnIsReleasedNotHandedOver() {
        assumeCapability(StoreCapability.WAITING_TURNS);
        String key = key("turn");
        String owner = newOwner();
        acquired(key, owner, LONG_TTL);
        AcquireResult waiting =
                store().acquire(new Acquisition(key, newOwner(), LONG_TTL, 0, new Turn("waiter", 100, 60_000)));
        assertInTurn(waiting, "the waiter", key);

        HandOverResult result = store().handOver(owner, next(key, newOwner()));

        assertThat(result.released())
                .as("the owner's lock on %s was released", describe(key))
                .isTrue();
        assertThat(result.next().isAcquired())
                .as("the next owner, while the waiter's turn keeps %s: %s", describe(key), result.next())
                .isFalse();
        assertThat(store().renew(new Renewal(key, owner, LONG_TTL, BOUND_MILLIS)))
                .as("the former owner's renewal")
                .isFalse();
        AcquireResult turnTaken =
                store().acquire(new Acquisition(key, newOwner(), LONG_TTL, 0, new Turn("waiter", 200, 60_000)));
        assertThat(turnTaken.isAcquired())
                .as("the waiter whose turn it is takes the freed key: %s", turnTaken)
                .isTrue();
    }

    @Test
    @TckRule(id = "S-3.7-03", spec = "spec-store-handover-not-holder")
    void aCallerThatDoesNotHoldTheKeyHandsNothingOver() {
        String key = key("stranger");
        String holder = newOwner();
        long token = acquired(key, holder, LONG_TTL);

        HandOverResult result = store().handOver(newOwner(), next(key, newOwner()));

        assertThat(result.released())
                .as("a stranger's hand-over released nothing")
                .isFalse();
        assertThat(result.next().isAcquired())
                .as("the next owner of %s, held by another: %s", describe(key), result.next())
                .isFalse();
        assertThat(store().renew(new Renewal(key, holder, LONG_TTL, BOUND_MILLIS)))
                .as("the holder still holds %s", describe(key))
                .isTrue();
        assertThat(store().release(key, holder)).isTrue();
        assertThat(acquired(key, newOwner(), LONG_TTL)).isGreaterThan(token);
    }

    @Test
    @TckRule(id = "S-3.7-06", spec = "spec-store-handover-not-holder")
    void aCallerThatDoesNotHoldAFreeKeyHandsItOverAsTheNextOwnersAcquisition() {
        String fresh = key("free-fresh");
        String released = key("free-released");
        String former = newOwner();
        long before = acquired(released, former, LONG_TTL);
        assertThat(store().release(released, former)).isTrue();

        for (String key : List.of(fresh, released)) {
            String caller = newOwner();
            String nextOwner = newOwner();
            HandOverResult result = store().handOver(caller, next(key, nextOwner));

            assertThat(result.released())
                    .as("a hand-over of free %s by a caller that does not hold it released nothing", describe(key))
                    .isFalse();
            assertThat(result.next().isAcquired())
                    .as("the next owner of free %s, as its acquisition would: %s", describe(key), result.next())
                    .isTrue();
            if (key.equals(released)) {
                assertThat(result.next().fencingToken())
                        .as("the token after the released one")
                        .isGreaterThan(before);
            }
            assertThat(store().acquire(next(key, newOwner())).isAcquired())
                    .as("a third caller while the next owner holds %s", describe(key))
                    .isFalse();
            assertThat(store().renew(new Renewal(key, caller, LONG_TTL, BOUND_MILLIS)))
                    .as("the caller's renewal: it took nothing")
                    .isFalse();
            assertThat(store().renew(new Renewal(key, nextOwner, LONG_TTL, BOUND_MILLIS)))
                    .as("the next owner's renewal")
                    .isTrue();
            assertThat(store().release(key, nextOwner))
                    .as("the next owner's release")
                    .isTrue();
        }
    }

    @Test
    @TckRule(id = "S-3.7-04", spec = "spec-store-handover-atomic")
    void racingCallersNeverTakeAKeyBetweenItsReleaseAndItsHandOver() throws Exception {
        int rounds = 20;
        List<String> violations = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            String key = key("raced-" + round);
            String owner = newOwner();
            acquired(key, owner, LONG_TTL);
            AtomicBoolean handedOver = new AtomicBoolean();
            AtomicInteger racerWins = new AtomicInteger();
            int r = round;
            ContractSupport.race(RACERS / 4 + 1, 1, scaled(6 * BOUND_MILLIS), (ignored, racer) -> {
                if (racer == 0) {
                    HandOverResult result = store().handOver(owner, next(key, newOwner()));
                    if (!result.next().isAcquired()) {
                        synchronized (violations) {
                            violations.add("round " + r + ": the hand-over answered " + result);
                        }
                    }
                    handedOver.set(true);
                    return;
                }
                while (!handedOver.get()) {
                    if (store().acquire(Acquisition.of(key, newOwner(), LONG_TTL, 0))
                            .isAcquired()) {
                        racerWins.incrementAndGet();
                    }
                }
            });
            if (racerWins.get() > 0) {
                violations.add("round " + round + ": " + racerWins + " racing callers took " + describe(key));
            }
        }
        assertThat(violations).as("hand-overs raced by plain acquisitions").isEmpty();
    }

    @Test
    @TckRule(id = "S-3.7-05", spec = "spec-store-handover-exclusive")
    void onlyAnExclusiveAcquisitionWithoutATurnIsHandedAKey() {
        String key = key("exclusive");
        String owner = newOwner();
        acquired(key, owner, LONG_TTL);

        assertThatThrownBy(() -> store().handOver(
                                owner, new Acquisition(key, newOwner(), LONG_TTL, 0, null, Acquisition.UNLIMITED)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().handOver(
                                owner, new Acquisition(key, newOwner(), LONG_TTL, 0, new Turn("waiter", 0, 60_000))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store().renew(new Renewal(key, owner, LONG_TTL, BOUND_MILLIS)))
                .as("refused, the hand-over changed nothing")
                .isTrue();
    }
}
