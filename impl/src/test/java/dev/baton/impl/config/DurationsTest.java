package dev.baton.impl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "500ms, 500",
        "30s, 30000",
        "5m, 300000",
        "1h, 3600000",
        "2d, 172800000",
        "1500, 1500",
        "PT30S, 30000",
        "PT0.25S, 250",
        "P30D, 2592000000",
        "' 10s ', 10000",
        "365d, 31536000000"
    })
    void parsesShortFormsIsoAndPlainMillis(String text, long millis) {
        assertThat(Durations.parseMillis(text, "baton.ttl")).isEqualTo(millis);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "abc",
                "-5s",
                "0",
                "0ms",
                "PT0S",
                "10 parsecs",
                "PT0.0005S",
                "366d",
                "P400D",
                "1.5s",
                "99999999999999d"
            })
    void rejectsWithAMessageNamingKeyAndValue(String text) {
        assertThatThrownBy(() -> Durations.parseMillis(text, "baton.ttl"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.ttl")
                .hasMessageContaining("'" + text + "'");
    }
}
