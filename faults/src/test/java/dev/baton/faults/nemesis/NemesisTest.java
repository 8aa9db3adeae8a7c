package dev.baton.faults.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.faults.history.FaultKind;
import dev.baton.faults.store.StoreKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The nemesis's deal: a short phase sees every fault of the store's deck before any repeat. */
class NemesisTest {

    @Test
    void everyKindIsDrawnOnceBeforeAnyRepeat() {
        for (StoreKind store : StoreKind.values()) {
            List<FaultKind> deck = store.deck();
            for (long seed = 0; seed < 50; seed++) {
                List<FaultKind> round = Nemesis.deal(deck, new Random(seed));
                List<FaultKind> drawn = new ArrayList<>(round);
                Collections.reverse(drawn); // drawn from the end
                int kinds = new HashSet<>(deck).size();

                assertThat(round).containsExactlyInAnyOrderElementsOf(deck);
                assertThat(new HashSet<>(drawn.subList(0, kinds)))
                        .as("%s, seed %d: the first %d draws", store.label(), seed, kinds)
                        .containsExactlyInAnyOrderElementsOf(new HashSet<>(deck));
            }
        }
    }
}
