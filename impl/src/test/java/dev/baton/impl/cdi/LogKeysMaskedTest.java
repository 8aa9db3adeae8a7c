package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** {@code baton.log.keys=masked}: the lines keep each key's prefix and mask the rest. */
@BatonTest
@WithConfig({"baton.log.keys=MASKED", "baton.admin.force-release=true", "baton.ttl=600ms"})
class LogKeysMaskedTest {

    @Inject
    Locks locks;

    @Test
    void theLinesNameOnlyThePrefixes() {
        assertThat(LogKeysLines.logged(locks))
                .noneSatisfy(line -> assertThat(line).contains("ann@example.com"))
                .anySatisfy(line -> assertThat(line).startsWith("BATON-050").contains("'customer:***'"))
                .anySatisfy(line -> assertThat(line).startsWith("BATON-002").contains("'customer:***'"))
                .anySatisfy(line -> assertThat(line).startsWith("BATON-070").contains("'tenant:***'"));
    }
}
