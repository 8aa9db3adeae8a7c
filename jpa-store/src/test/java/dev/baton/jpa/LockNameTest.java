package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.internal.advisory.LockName;
import java.text.Normalizer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Key → advisory lock: names survive a loose (case-insensitive, PAD SPACE) comparison and MariaDB's 64-char limit. */
class LockNameTest {

    private static final String NS = "test.baton_locks";

    @Test
    void namesHaveNoUpperCaseNoSpaceAndAtMostSixtyFourChars() {
        List<String> keys = List.of(
                "k",
                "K",
                "a ",
                "order:42",
                "caf\u00e9",
                "\ud83d\ude00",
                "x".repeat(500),
                "#%/",
                "baton#" + "0".repeat(58));
        for (String key : keys) {
            String name = LockName.of(NS, key).name();
            assertThat(name)
                    .as("name of '%s'", key)
                    .hasSizeLessThanOrEqualTo(64)
                    .isEqualTo(name.toLowerCase(Locale.ROOT))
                    .doesNotContain(" ");
        }
        assertThat(LockName.of(NS, "order:42").name()).isEqualTo("test.baton_locks/order:42");
        assertThat(LockName.of(NS, "x".repeat(100)).name()).startsWith("baton#").hasSize(64);
    }

    @Test
    void keysDifferingInCaseSpaceOrNormalFormGetDifferentNamesAndIdsEvenWhenComparedLoosely() {
        String nfc = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFC);
        String nfd = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFD);
        for (String prefix : List.of("", "y".repeat(80))) {
            List<String> keys = List.of(prefix + "k", prefix + "K", prefix + "k ", prefix + nfc, prefix + nfd);
            Set<String> loose = new HashSet<>();
            Set<Long> ids = new HashSet<>();
            for (String key : keys) {
                LockName name = LockName.of(NS, key);
                loose.add(name.name().toLowerCase(Locale.ROOT).stripTrailing());
                ids.add(name.id());
            }
            assertThat(loose)
                    .as("names, compared case-insensitively and without trailing spaces")
                    .hasSize(keys.size());
            assertThat(ids).hasSize(keys.size());
        }
    }

    @Test
    void theNamespaceKeepsStoresOnDifferentTablesApart() {
        assertThat(LockName.of("test.a", "k")).isNotEqualTo(LockName.of("test.b", "k"));
        assertThat(LockName.of("test.a", "k")).isEqualTo(LockName.of("test.a", "k"));
    }
}
