package dev.baton.spi;

import static dev.baton.spi.LockArguments.MAX_DURATION_MILLIS;
import static dev.baton.spi.LockArguments.MAX_KEY_LENGTH;
import static dev.baton.spi.LockArguments.MAX_OWNER_LENGTH;
import static dev.baton.spi.LockArguments.STORE_BOUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The requests of the store SPI ({@link Acquisition}, {@link Renewal}, {@link Lease}) check themselves, so that no
 * store has to: each bad component is refused with a message naming it, and the edges of every range are accepted.
 * These checks were rules of the store TCK (S-9-04 to S-9-07, S-9-09 to S-9-11) while every store checked its
 * arguments itself.
 */
class RequestsTest {

    private static final String KEY = "k";
    private static final String OWNER = "owner-1";
    private static final long TTL = 1_000;

    /** Keys that are not valid: null, empty, too long, lone surrogates. */
    static Stream<Arguments> badKeys() {
        List<String> keys = new ArrayList<>();
        keys.add(null);
        keys.add("");
        keys.add("x".repeat(MAX_KEY_LENGTH + 1));
        keys.add("\u00e9".repeat(MAX_KEY_LENGTH + 1));
        keys.add("k\ud800");
        keys.add("\udc00x");
        keys.add("\ude00\ud83d");
        keys.add("\ud83d");
        return keys.stream().map(key -> Arguments.of(describe(key), key));
    }

    /** Owners that are not valid: null, empty, too long, not printable ASCII. */
    static Stream<Arguments> badOwners() {
        List<String> owners = new ArrayList<>();
        owners.add(null);
        owners.add("");
        owners.add("a".repeat(MAX_OWNER_LENGTH + 1));
        owners.add("with space");
        owners.add("tab\there");
        owners.add("caf\u00e9");
        owners.add("nul\0");
        owners.add("del\u007f");
        owners.add("line\n");
        return owners.stream().map(owner -> Arguments.of(describe(owner), owner));
    }

    static Stream<Long> badTtls() {
        return Stream.of(0L, -1L, Long.MIN_VALUE, MAX_DURATION_MILLIS + 1, Long.MAX_VALUE);
    }

    static Stream<Long> badWaits() {
        return Stream.of(-2L, Long.MIN_VALUE, MAX_DURATION_MILLIS + 1, Long.MAX_VALUE);
    }

    /** Keys at the edges of the range: 500 chars of one, two and three UTF-8 bytes, surrogate pairs, NUL. */
    static Stream<String> goodKeys() {
        return Stream.of(
                "k",
                "x".repeat(MAX_KEY_LENGTH),
                "\u00e9".repeat(MAX_KEY_LENGTH),
                "\u6f22".repeat(MAX_KEY_LENGTH),
                "\ud83d\ude00".repeat(MAX_KEY_LENGTH / 2),
                "\ud800\udc00",
                "\udbff\udfff",
                "\0",
                "nul\0in the middle",
                " ");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badKeys")
    void everyRequestRefusesABadKeyNamingIt(String what, String key) {
        assertRefused(() -> Acquisition.of(key, OWNER, TTL), "lock key");
        assertRefused(() -> new Acquisition(key, OWNER, TTL, 0, null), "lock key");
        assertRefused(() -> Renewal.of(key, OWNER, TTL), "lock key");
        assertRefused(() -> new Lease(key, OWNER), "lock key");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOwners")
    void everyRequestRefusesABadOwnerNamingIt(String what, String owner) {
        assertRefused(() -> Acquisition.of(KEY, owner, TTL), "lock owner");
        assertRefused(() -> Renewal.of(KEY, owner, TTL), "lock owner");
        assertRefused(() -> new Lease(KEY, owner), "lock owner");
    }

    @ParameterizedTest
    @MethodSource("badTtls")
    void acquisitionAndRenewalRefuseATtlOutOfRangeNamingIt(long ttl) {
        assertRefused(() -> Acquisition.of(KEY, OWNER, ttl), "ttl");
        assertRefused(() -> Acquisition.of(KEY, OWNER, ttl, 0), "ttl");
        assertRefused(() -> Renewal.of(KEY, OWNER, ttl), "ttl");
    }

    @ParameterizedTest
    @MethodSource("badWaits")
    void acquisitionAndRenewalRefuseABoundOutOfRangeNamingIt(long maxWait) {
        assertRefused(() -> Acquisition.of(KEY, OWNER, TTL, maxWait), "maxWaitMillis");
        assertRefused(() -> new Acquisition(KEY, OWNER, TTL, maxWait, new Turn("w1", 0, 1_000)), "maxWaitMillis");
        assertRefused(() -> new Renewal(KEY, OWNER, TTL, maxWait), "maxWaitMillis");
    }

    @ParameterizedTest
    @MethodSource("goodKeys")
    void keysAtTheEdgesAreAcceptedAsTheyAre(String key) {
        assertThat(Acquisition.of(key, OWNER, TTL).key()).isSameAs(key);
        assertThat(Renewal.of(key, OWNER, TTL).key()).isSameAs(key);
        assertThat(new Lease(key, OWNER).key()).isSameAs(key);
    }

    @Test
    void ownersOfEveryPrintableAsciiCharUpToTheLongestAreAccepted() {
        StringBuilder longest = new StringBuilder();
        for (char c = '!'; longest.length() < MAX_OWNER_LENGTH; c = c == '~' ? '!' : (char) (c + 1)) {
            longest.append(c);
        }
        StringBuilder every = new StringBuilder();
        for (char c = '!'; c <= '~'; c++) {
            every.append(c);
        }
        for (String owner : List.of("o", longest.toString(), every.substring(0, 64), every.substring(64))) {
            assertThat(Acquisition.of(KEY, owner, TTL).owner()).isEqualTo(owner);
            assertThat(Renewal.of(KEY, owner, TTL).owner()).isEqualTo(owner);
            assertThat(new Lease(KEY, owner).owner()).isEqualTo(owner);
        }
    }

    @Test
    void ttlsAndBoundsAtTheEdgesAreAccepted() {
        for (long ttl : new long[] {1, MAX_DURATION_MILLIS}) {
            for (long maxWait : new long[] {0, 1, MAX_DURATION_MILLIS, STORE_BOUND}) {
                Acquisition acquisition = new Acquisition(KEY, OWNER, ttl, maxWait, null);
                assertThat(acquisition.ttlMillis()).isEqualTo(ttl);
                assertThat(acquisition.maxWaitMillis()).isEqualTo(maxWait);
                Renewal renewal = new Renewal(KEY, OWNER, ttl, maxWait);
                assertThat(renewal.ttlMillis()).isEqualTo(ttl);
                assertThat(renewal.maxWaitMillis()).isEqualTo(maxWait);
            }
        }
    }

    @Test
    void theShortFormsSetNoBoundOfTheCallersAndNoTurn() {
        Acquisition unbounded = Acquisition.of(KEY, OWNER, TTL);
        assertThat(unbounded.maxWaitMillis()).isEqualTo(STORE_BOUND);
        assertThat(unbounded.turn()).isNull();
        assertThat(unbounded.maxWaitMillisOr(5_000)).isEqualTo(5_000);

        Acquisition bounded = Acquisition.of(KEY, OWNER, TTL, 0);
        assertThat(bounded.maxWaitMillis()).isZero();
        assertThat(bounded.turn()).isNull();
        assertThat(bounded.maxWaitMillisOr(5_000)).isZero();

        Renewal renewal = Renewal.of(KEY, OWNER, TTL);
        assertThat(renewal.maxWaitMillis()).isEqualTo(STORE_BOUND);
        assertThat(renewal.maxWaitMillisOr(5_000)).isEqualTo(5_000);
        assertThat(new Renewal(KEY, OWNER, TTL, 300).maxWaitMillisOr(5_000)).isEqualTo(300);
    }

    @Test
    void theRuntimesCheckRefusesNulOnlyForAStoreThatCannotKeepIt() {
        assertThat(LockArguments.requireValidKey("a\0b", true)).isEqualTo("a\0b");
        assertRefused(() -> LockArguments.requireValidKey("a\0b", false), "NUL");
    }

    private static void assertRefused(Runnable building, String named) {
        assertThatIllegalArgumentException()
                .isThrownBy(building::run)
                .satisfies(refusal -> assertThat(refusal.getMessage()).contains(named));
    }

    private static String describe(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder shown = new StringBuilder();
        text.chars()
                .limit(12)
                .forEach(c -> shown.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : (char) c));
        return "\"" + shown + (text.length() > 12 ? "...\" (" + text.length() + " chars)" : "\"");
    }
}
