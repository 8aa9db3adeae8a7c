package dev.baton.impl.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.health.HealthChecksTest.SwitchableStore;
import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.WithConfig;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code baton.health.details=true}: an operator asks for the store's description and the failure's message. */
@ExtendWith(TestConfig.class)
@WithConfig("baton.health.details=true")
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, HealthExtension.class})
@AddBeanClasses({SmallRyeHealthReporter.class, HealthChecksTest.Stores.class})
class HealthDetailsTest {

    @Inject
    SmallRyeHealthReporter reporter;

    @Inject
    SwitchableStore store;

    @AfterEach
    void healthy() {
        store.down = false;
    }

    @Test
    void aDownAnswerCarriesTheStoresDescriptionAndTheFailuresMessage() {
        store.down = true;
        SmallRyeHealth down = reporter.getReadiness();

        JsonObject data = down.getPayload().getJsonArray("checks").stream()
                .map(JsonObject.class::cast)
                .filter(c -> c.getString("name").equals(StoresReadinessCheck.NAME))
                .findFirst()
                .orElseThrow()
                .getJsonObject("data");
        assertThat(data.getString("default.status")).isEqualTo("DOWN");
        assertThat(data.getString("default.store")).isEqualTo("switchable (" + HealthChecksTest.WHERE + ")");
        assertThat(data.getString("default.error"))
                .isEqualTo("dev.baton.LockStoreException: connection refused: " + HealthChecksTest.WHERE + " (test)");
    }
}
