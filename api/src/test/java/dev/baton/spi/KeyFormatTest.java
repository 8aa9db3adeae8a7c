package dev.baton.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The three forms of a key outside the process, and their names in the configuration. */
class KeyFormatTest {

    private static final String EMAIL_KEY = "customer:ann@example.com";

    @Test
    void plainIsTheKey() {
        assertThat(KeyFormat.PLAIN.format(EMAIL_KEY)).isEqualTo(EMAIL_KEY);
    }

    /** Expected values from {@code printf '%s' KEY | sha256sum}: the hash is SHA-256 and nothing of this JVM. */
    @Test
    void hashIsAPrefixedTruncatedSha256OfTheUtf8Bytes() {
        assertThat(KeyFormat.HASH.format(EMAIL_KEY)).isEqualTo("sha256:3d3fa0fad987f9a9");
        assertThat(KeyFormat.HASH.format("order:42")).isEqualTo("sha256:da68380de022bac7");
        assertThat(KeyFormat.HASH.format("order:43")).isNotEqualTo(KeyFormat.HASH.format("order:42"));
        assertThat(KeyFormat.HASH.format(EMAIL_KEY)).doesNotContain("ann", "example");
    }

    @Test
    void maskedKeepsThePrefixUpToTheFirstColon() {
        assertThat(KeyFormat.MASKED.format(EMAIL_KEY)).isEqualTo("customer:***");
        assertThat(KeyFormat.MASKED.format("tenant:acme:invoice")).isEqualTo("tenant:***");
        assertThat(KeyFormat.MASKED.format("nightly-report")).isEqualTo("***");
        assertThat(KeyFormat.MASKED.format(":x")).isEqualTo(":***");
    }

    @Test
    void redactReplacesEveryOccurrenceOfTheKeyInAText() {
        String text = "duplicate key (lock_key)=(" + EMAIL_KEY + "); retry '" + EMAIL_KEY + "'";

        assertThat(KeyFormat.MASKED.redact(text, EMAIL_KEY))
                .isEqualTo("duplicate key (lock_key)=(customer:***); retry 'customer:***'");
        assertThat(KeyFormat.HASH.redact(text, EMAIL_KEY))
                .doesNotContain("ann@")
                .contains("sha256:3d3fa0fad987f9a9");
        assertThat(KeyFormat.PLAIN.redact(text, EMAIL_KEY)).isSameAs(text);
        assertThat(KeyFormat.HASH.redact(null, EMAIL_KEY)).isNull();
        assertThat(KeyFormat.HASH.redact("no key here", EMAIL_KEY)).isEqualTo("no key here");
        assertThat(KeyFormat.HASH.redact("an empty key is in every text", ""))
                .isEqualTo("an empty key is in every text");
    }

    @Test
    void redactFindsALongKeyThatAStoreShortened() {
        String key = "export:" + "u".repeat(40) + "@example.com/2026-12-07/all-orders-and-invoices";
        String shortened = "failed to renew key '" + key.substring(0, 57) + "...'";

        assertThat(KeyFormat.MASKED.redact(shortened, key)).isEqualTo("failed to renew key 'export:***...'");
        assertThat(KeyFormat.HASH.redact(shortened, key))
                .isEqualTo("failed to renew key '" + KeyFormat.HASH.format(key) + "...'");
        assertThat(KeyFormat.HASH.redact("key 'export:uuu'", key))
                .as("a start shorter than 40 characters is not taken for the key")
                .isEqualTo("key 'export:uuu'");
    }

    @Test
    void theConfiguredNamesAreReadInAnyCase() {
        assertThat(KeyFormat.of("plain")).contains(KeyFormat.PLAIN);
        assertThat(KeyFormat.of("HASH")).contains(KeyFormat.HASH);
        assertThat(KeyFormat.of("Masked")).contains(KeyFormat.MASKED);
        assertThat(KeyFormat.of("sha256")).isEmpty();
        assertThat(KeyFormat.of("")).isEmpty();
        for (KeyFormat format : KeyFormat.values()) {
            assertThat(KeyFormat.of(format.value())).contains(format);
        }
    }
}
