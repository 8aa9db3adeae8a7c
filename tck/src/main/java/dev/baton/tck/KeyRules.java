package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keys are kept exactly apart, through every operation.
 *
 * <p>Run by {@link LockStoreContract.Keys}, tagged {@value ContractTags#KEYS}.
 */
abstract class KeyRules extends ContractRules {

    @Test
    @TckRule(id = "S-2.1-01", spec = "spec-model-key-exact")
    void keysDifferingOnlyInCaseAreDifferentLocks() {
        assertDistinct(key("k"), key("K"));
        assertDistinct(key("stra\u00dfe"), key("STRASSE"));
        assertDistinct(key("i"), key("\u0130"));
    }

    @Test
    @TckRule(id = "S-2.1-02", spec = "spec-model-key-exact")
    void keysDifferingOnlyInTrailingOrLeadingSpaceAreDifferentLocks() {
        assertDistinct(key("a"), key("a "));
        assertDistinct(key("a"), key("a\t"));
        assertDistinct(key("a  "), key("a "));
        assertDistinct(" " + key("a"), key("a"));
    }

    @Test
    @TckRule(id = "S-2.1-03", spec = "spec-model-key-exact")
    void nfcAndNfdFormsAreDifferentLocks() {
        String nfc = key(Normalizer.normalize("\u00e9", Normalizer.Form.NFC));
        String nfd = key(Normalizer.normalize("\u00e9", Normalizer.Form.NFD));
        assertThat(nfc).isNotEqualTo(nfd);
        assertDistinct(nfc, nfd);
        assertDistinct(key("\u212b"), key("\u00c5"));
    }

    @Test
    @TckRule(id = "S-2.1-04", spec = "spec-model-key-range")
    void fourByteUtf8KeysAreKeptExactly() {
        assertAllDistinct(List.of(
                key("\ud83d\ude00"),
                key("\ud83d\ude01"),
                key("?"),
                key("\ufffd"),
                key("??"),
                key(""),
                key("\ud800\udc00"),
                key("\udbff\udfff")));
    }

    @Test
    @TckRule(id = "S-2.1-05", spec = "spec-model-key-range")
    void fiveHundredCharAsciiKeysAreKeptExactly() {
        String a = keyOfLength(LockArguments.MAX_KEY_LENGTH, "x", "a");
        String b = keyOfLength(LockArguments.MAX_KEY_LENGTH, "x", "b");
        assertThat(a).hasSize(500);
        assertDistinct(a, b);
        assertDistinct(a, a.substring(0, 499));
    }

    @Test
    @TckRule(id = "S-2.1-06", spec = "spec-model-key-range")
    void fiveHundredCharMultibyteKeysAreKeptExactly() {
        String a = keyOfLength(LockArguments.MAX_KEY_LENGTH, "\u00e9\u6f22\ud83d\ude00", "\u6f22");
        String b = keyOfLength(LockArguments.MAX_KEY_LENGTH, "\u00e9\u6f22\ud83d\ude00", "\u5b57");
        String emoji = keyOfLength(LockArguments.MAX_KEY_LENGTH, "\ud83d\ude00", "\ud83d\ude01");
        assertThat(List.of(a, b, emoji)).allSatisfy(each -> assertThat(each).hasSize(500));
        assertDistinct(a, b);
        assertDistinct(emoji, emoji.substring(0, 498) + "\ud83d\ude00");
    }

    @Test
    @TckRule(id = "S-2.1-07", spec = "spec-model-key-exact")
    void keysDifferingOnlyInTheLastCharAreDifferentLocks() {
        assertDistinct(key("lock-1"), key("lock-2"));
        assertDistinct(key("lock"), key("lock:1"));
    }

    @Test
    @TckRule(id = "S-9-01", spec = "spec-model-key-exact")
    void quotesAndBackslashesAreKeptExactly() {
        assertAllDistinct(List.of(
                key("a'b"),
                key("a''b"),
                key("a\"b"),
                key("a\\'b"),
                key("a\\b"),
                key("a\\\\b"),
                key("a`b"),
                key("ab"),
                key("a\\")));
    }

    @Test
    @TckRule(id = "S-9-02", spec = "spec-model-key-exact")
    void likeWildcardsAreKeptExactly() {
        assertDistinct(key("abc"), key("a_c"));
        assertDistinct(key("abc"), key("a%"));
        assertAllDistinct(List.of(key("%"), key("_"), key("\\%"), key("\\_"), key("[a]"), key("*"), key("?x")));
    }

    @Test
    @TckRule(id = "S-9-03", spec = "spec-model-key-exact")
    void sqlAndLuaMetacharactersAreKeptExactly() {
        assertAllDistinct(List.of(
                key("'; DROP TABLE baton_locks; --"),
                key("' OR '1'='1"),
                key("\" OR 1=1 --"),
                key("]]..redis.call('FLUSHALL')..[["),
                key("KEYS[1]"),
                key("ARGV[1]"),
                key("$1"),
                key("?"),
                key(":name"),
                key("${key}"),
                key("{0}"),
                key("%s"),
                key("/* */"),
                key("#"),
                key(";"),
                key("\n"),
                key("\r\n"),
                key("--"),
                key("\u001b[0m")));
    }

    @Test
    @TckRule(id = "S-2.1-08", spec = "spec-model-key-exact")
    void whitespaceOnlyKeysAreKeptExactly() {
        String[] spaces = {" ", "\t", "\n", "\u00a0", "\u2003", "\u3000"};
        StringBuilder base = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            base.append(spaces[ContractSupport.randomInt(spaces.length)]);
        }
        String w = base.toString();
        assertAllDistinct(List.of(w, w + " ", " " + w, w + "\t", w + "\u00a0", w + "\u3000", w + "  "));
    }

    @Test
    @TckRule(id = "S-9-08", spec = "spec-model-key-nul")
    void nulIsKeptExactly() {
        assumeCapability(StoreCapability.NUL_IN_KEYS);
        String base = key("nul");
        assertAllDistinct(
                List.of(base + "\0", base, base + "\0\0", base + " ", base + "\0x", base + "x", base + "\\0"));
    }

    /** A key of exactly {@code length} chars: this test's prefix padded with {@code fill}, then {@code last}. */
    private String keyOfLength(int length, String fill, String last) {
        StringBuilder key = new StringBuilder(key(""));
        while (key.length() + fill.length() + last.length() <= length) {
            key.append(fill);
        }
        while (key.length() + last.length() < length) {
            key.append('x');
        }
        return key.append(last).toString();
    }

    /** Asserts that {@code a} and {@code b} are two locks, through every operation. */
    private void assertDistinct(String a, String b) {
        String ownerA = newOwner();
        String ownerB = newOwner();
        acquired(a, ownerA, LONG_TTL);
        AcquireResult second = store().acquire(Acquisition.of(b, ownerB, LONG_TTL));
        assertThat(second.isAcquired())
                .as("%s and %s are two locks: with the first held, the second must be free", describe(a), describe(b))
                .isTrue();
        assertThat(store().renew(Renewal.of(b, ownerA, LONG_TTL)))
                .as("renew of %s by the owner of %s", describe(b), describe(a))
                .isFalse();
        assertThat(store().renew(Renewal.of(a, ownerB, LONG_TTL)))
                .as("renew of %s by the owner of %s", describe(a), describe(b))
                .isFalse();
        assertThat(store().release(b, ownerA))
                .as("release of %s by the owner of %s", describe(b), describe(a))
                .isFalse();
        assertThat(store().release(a, ownerB))
                .as("release of %s by the owner of %s", describe(a), describe(b))
                .isFalse();
        assertThat(store().renew(Renewal.of(a, ownerA, LONG_TTL)))
                .as("renew of %s by its holder", describe(a))
                .isTrue();
        assertThat(store().release(a, ownerA))
                .as("release of %s by its holder", describe(a))
                .isTrue();
        assertHeld(b, "after " + describe(a) + " was released");
        assertThat(store().release(b, ownerB))
                .as("release of %s by its holder", describe(b))
                .isTrue();
    }

    /** Asserts that all {@code keys} are different locks: all can be held at once, each released on its own. */
    private void assertAllDistinct(List<String> keys) {
        assertThat(new HashSet<>(keys))
                .as("the test's keys are distinct Java strings")
                .hasSameSizeAs(keys);
        List<String> owners = new ArrayList<>();
        for (String key : keys) {
            String owner = newOwner();
            owners.add(owner);
            AcquireResult result = store().acquire(Acquisition.of(key, owner, LONG_TTL));
            assertThat(result.isAcquired())
                    .as(
                            "%s is a lock of its own, apart from %s",
                            describe(key),
                            keys.stream()
                                    .filter(other -> !other.equals(key))
                                    .map(ContractSupport::describe)
                                    .toList())
                    .isTrue();
        }
        for (int i = 0; i < keys.size(); i++) {
            assertHeld(keys.get(i), "while every key is held");
            assertThat(store().renew(Renewal.of(keys.get(i), owners.get(i), LONG_TTL)))
                    .as("renew of %s by its holder", describe(keys.get(i)))
                    .isTrue();
            assertThat(store().release(keys.get(i), owners.get(i)))
                    .as("release of %s by its holder", describe(keys.get(i)))
                    .isTrue();
        }
    }
}
