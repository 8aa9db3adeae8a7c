package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** Without {@code baton.log.keys} the lines name the keys as they are (the default, as before the setting). */
@BatonTest
@WithConfig({"baton.admin.force-release=true", "baton.ttl=600ms"})
class LogKeysPlainTest {

    @Inject
    Locks locks;

    @Test
    void theLinesNameTheKeys() {
        assertThat(LogKeysLines.logged(locks))
                .anySatisfy(line -> assertThat(line).startsWith("BATON-050").contains("'" + LogKeysLines.KEY + "'"))
                .anySatisfy(line -> assertThat(line).startsWith("BATON-002").contains("'" + LogKeysLines.KEY + "'"))
                .anySatisfy(
                        line -> assertThat(line).startsWith("BATON-070").contains("'" + LogKeysLines.ELECTION + "'"));
    }
}
