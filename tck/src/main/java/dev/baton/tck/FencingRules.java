package dev.baton.tck;

import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fencing tokens per key strictly increase, across release and expiry.
 *
 * <p>Run by {@link LockStoreContract.Fencing}, tagged {@value ContractTags#FENCING}.
 */
abstract class FencingRules extends ContractRules {

    @Test
    @TckRule(id = "S-2.4-01", spec = "spec-model-token-increase")
    void tokensStrictlyIncreaseAcrossAThousandMixedCycles() {
        String key = key("cycles");
        List<Long> tokens = new ArrayList<>();
        for (int cycle = 0; cycle < 1_000; cycle++) {
            String owner = newOwner();
            switch (cycle % 4) {
                case 0 -> { // acquire, release
                    tokens.add(awaitAcquired(key, owner, LONG_TTL));
                    assertThat(store().release(key, owner))
                            .as("store.release(key, owner) must answer true")
                            .isTrue();
                }
                case 1 -> // acquire, let expire: the next cycle waits for it
                    tokens.add(awaitAcquired(key, owner, 1));
                case 2 -> { // acquire, renew, release
                    tokens.add(awaitAcquired(key, owner, LONG_TTL));
                    assertThat(store().renew(Renewal.of(key, owner, LONG_TTL)))
                            .as("store.renew(Renewal.of(key, owner, LONG_TTL)) must answer true")
                            .isTrue();
                    assertThat(store().release(key, owner))
                            .as("store.release(key, owner) must answer true")
                            .isTrue();
                }
                default -> { // acquire; others fail to take, renew and release it; release
                    tokens.add(awaitAcquired(key, owner, LONG_TTL));
                    String other = newOwner();
                    assertThat(store().acquire(Acquisition.of(key, other, LONG_TTL))
                                    .isAcquired())
                            .as("store.acquire(Acquisition.of(key, other, LONG_TTL)).isAcquired() must answer false")
                            .isFalse();
                    assertThat(store().renew(Renewal.of(key, other, LONG_TTL)))
                            .as("store.renew(Renewal.of(key, other, LONG_TTL)) must answer false")
                            .isFalse();
                    assertThat(store().release(key, other))
                            .as("store.release(key, other) must answer false")
                            .isFalse();
                    assertThat(store().release(key, owner))
                            .as("store.release(key, owner) must answer true")
                            .isTrue();
                }
            }
        }
        assertStrictlyIncreasing(tokens, "across 1,000 acquire/release/expire cycles");
    }

    @Test
    @TckRule(id = "S-2.4-02", spec = "spec-model-token-increase")
    void releaseNeverResetsTheTokenCounter() {
        String key = key("released");
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String owner = newOwner();
            tokens.add(acquired(key, owner, LONG_TTL));
            assertThat(store().release(key, owner))
                    .as("store.release(key, owner) must answer true")
                    .isTrue();
        }
        assertStrictlyIncreasing(tokens, "across releases");
    }

    @Test
    @TckRule(id = "S-2.4-03", spec = "spec-model-token-increase")
    void expiryNeverResetsTheTokenCounter() {
        String key = key("expired");
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            tokens.add(awaitAcquired(key, newOwner(), 1));
        }
        tokens.add(awaitAcquired(key, newOwner(), LONG_TTL));
        assertStrictlyIncreasing(tokens, "across expiries");
    }
}
