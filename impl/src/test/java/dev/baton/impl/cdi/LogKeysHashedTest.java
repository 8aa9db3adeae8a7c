package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import dev.baton.spi.KeyFormat;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** {@code baton.log.keys=hash} reaches the engines and the elections: their lines name hashes, never keys. */
@BatonTest
@WithConfig({"baton.log.keys=hash", "baton.admin.force-release=true", "baton.ttl=600ms"})
class LogKeysHashedTest {

    @Inject
    Locks locks;

    @Test
    void theLinesNameTheKeysHashes() {
        assertThat(LogKeysLines.logged(locks))
                .noneSatisfy(line -> assertThat(line).contains("ann@example.com"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("BATON-050")
                        .contains("'" + KeyFormat.HASH.format(LogKeysLines.KEY) + "'"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("BATON-002")
                        .contains("'" + KeyFormat.HASH.format(LogKeysLines.KEY) + "'"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("BATON-070")
                        .contains("'" + KeyFormat.HASH.format(LogKeysLines.ELECTION) + "'"));
    }
}
