package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TimeFactorTest {

    @Test
    void absentMeansOne() {
        assertThat(TimeFactor.parse(null)).isEqualTo(1.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"3", " 2.5 ", "0.5", "1e-3"})
    void aPositiveFiniteNumberIsTaken(String value) {
        assertThat(TimeFactor.parse(value)).isEqualTo(Double.parseDouble(value.trim()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "0", "-1", "-0", "NaN", "Infinity", "1e400"})
    void anythingElseIsRefusedNamingThePropertyAndTheValue(String value) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TimeFactor.parse(value))
                .withMessageContaining("baton.tck.timeFactor")
                .withMessageContaining("'" + value + "'");
    }

    @Test
    void readsTheSystemProperty() {
        String before = System.getProperty(TimeFactor.PROPERTY);
        try {
            System.setProperty(TimeFactor.PROPERTY, "4");
            assertThat(TimeFactor.get()).isEqualTo(4.0);
            assertThat(TimeFactor.scale(Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(4));
            System.setProperty(TimeFactor.PROPERTY, "zero");
            assertThatIllegalArgumentException().isThrownBy(TimeFactor::get).withMessageContaining("'zero'");
        } finally {
            if (before == null) {
                System.clearProperty(TimeFactor.PROPERTY);
            } else {
                System.setProperty(TimeFactor.PROPERTY, before);
            }
        }
    }

    @Test
    void aScaledDurationIsAtLeastOneMillisecond() {
        assertThat(TimeFactor.scale(Duration.ofMillis(1), 0.01)).isEqualTo(Duration.ofMillis(1));
        assertThat(TimeFactor.scale(Duration.ofMillis(50), 3)).isEqualTo(Duration.ofMillis(150));
    }
}
