package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Owners are compared exactly, up to the longest owner.
 *
 * <p>Run by {@link LockStoreContract.Owners}, tagged {@value ContractTags#OWNERS}.
 */
abstract class OwnerRules extends ContractRules {

    @Test
    @TckRule(id = "S-2.1-09", spec = "spec-model-owner-exact")
    void ownersAreComparedExactly() {
        String key = key("owned");
        String holder = "owner-abc-" + ContractSupport.randomHex(8);
        acquired(key, holder, LONG_TTL);

        for (String other : List.of(
                holder.toUpperCase(Locale.ROOT),
                holder.substring(1),
                holder + "x",
                holder.substring(0, holder.length() - 1))) {
            assertThat(store().renew(Renewal.of(key, other, LONG_TTL)))
                    .as("renew by owner %s of a lock of %s", other, holder)
                    .isFalse();
            assertThat(store().release(key, other))
                    .as("release by owner %s of a lock of %s", other, holder)
                    .isFalse();
        }
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
    }

    @Test
    @TckRule(id = "S-2.1-10", spec = "spec-model-owner-exact")
    void ownerOfSixtyFourPrintableCharsIsAccepted() {
        String key = key("owned");
        StringBuilder owner = new StringBuilder();
        for (char c = '!'; owner.length() < LockArguments.MAX_OWNER_LENGTH; c = c == '~' ? '!' : (char) (c + 1)) {
            owner.append(c);
        }
        acquired(key, owner.toString(), LONG_TTL);
        assertThat(store().renew(Renewal.of(key, owner.toString(), LONG_TTL)))
                .as("store.renew(Renewal.of(key, owner.toString(), LONG_TTL)) must answer true")
                .isTrue();
        assertThat(store().release(key, owner.toString()))
                .as("store.release(key, owner.toString()) must answer true")
                .isTrue();
    }
}
