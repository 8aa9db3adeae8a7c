package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.LockArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Owners are compared exactly; owners that are not valid are rejected.
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
            assertThat(store().renew(key, other, LONG_TTL))
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
        assertThat(store().renew(key, owner.toString(), LONG_TTL))
                .as("store.renew(key, owner.toString(), LONG_TTL) must answer true")
                .isTrue();
        assertThat(store().release(key, owner.toString()))
                .as("store.release(key, owner.toString()) must answer true")
                .isTrue();
    }

    @Test
    @TckRule(id = "S-9-11", spec = "spec-model-owner-invalid")
    void badOwnersAreRejected() {
        String key = key("owned");
        List<String> bad = new ArrayList<>(List.of(
                "",
                "a".repeat(LockArguments.MAX_OWNER_LENGTH + 1),
                "with space",
                "tab\there",
                "caf\u00e9",
                "nul\0",
                "del\u007f",
                "line\n"));
        bad.add(null);
        for (String owner : bad) {
            String what = "owner " + describe(owner);
            assertRejected(() -> store().acquire(key, owner, LONG_TTL), "acquire", what);
            assertRejected(() -> store().renew(key, owner, LONG_TTL), "renew", what);
            assertRejected(() -> store().release(key, owner), "release", what);
        }
        assertThat(store().acquire(key, newOwner(), LONG_TTL).isAcquired())
                .as("rejected calls took nothing")
                .isTrue();
    }
}
