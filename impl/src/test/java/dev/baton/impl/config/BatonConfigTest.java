package dev.baton.impl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.Synchronized;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

class BatonConfigTest {

    private static Config config(String... properties) {
        Map<String, String> map = new HashMap<>();
        for (String p : properties) {
            map.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1));
        }
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(map, "test", 500)).build();
    }

    @Test
    void withNothingConfiguredTheDefaultsApply() {
        BatonConfig config = BatonConfig.read(config());
        ManagerSettings settings = config.manager("").orElseThrow();
        assertThat(settings.store()).isEmpty();
        assertThat(settings.ttlMillis()).isEqualTo(30_000);
        assertThat(settings.timeoutMillis()).isEqualTo(10_000);
        assertThat(settings.prefix()).isEmpty();
        assertThat(settings.renewIntervalMillis(30_000)).isEqualTo(10_000);
        assertThat(settings.interruptOnLoss()).isFalse();
        assertThat(config.interceptorPriority()).isEqualTo(Synchronized.DEFAULT_PRIORITY);
        assertThat(config.managers()).containsOnlyKeys("");
    }

    @Test
    void theShutdownGraceIsFiveSecondsByDefaultMayBeZeroAndIsValidated() {
        assertThat(BatonConfig.read(config()).shutdownGraceMillis()).isEqualTo(5_000);
        assertThat(BatonConfig.read(config("baton.shutdown-grace=2s")).shutdownGraceMillis()).isEqualTo(2_000);
        assertThat(BatonConfig.read(config("baton.shutdown-grace=PT1M")).shutdownGraceMillis()).isEqualTo(60_000);
        assertThat(BatonConfig.read(config("baton.shutdown-grace=0")).shutdownGraceMillis()).isZero();
        assertThat(BatonConfig.read(config("baton.shutdown-grace=0s")).shutdownGraceMillis()).isZero();
        assertThat(BatonConfig.read(config("baton.shutdown-grace=PT0S")).shutdownGraceMillis()).isZero();
        assertThatThrownBy(() -> BatonConfig.read(config("baton.shutdown-grace=-1s")))
                .isInstanceOf(LockConfigurationException.class).hasMessageContaining("baton.shutdown-grace").hasMessageContaining("'-1s'");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.shutdown-grace=soon")))
                .isInstanceOf(LockConfigurationException.class).hasMessageContaining("baton.shutdown-grace").hasMessageContaining("'soon'");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.shutdown-grace=11m")))
                .isInstanceOf(LockConfigurationException.class).hasMessageContaining("baton.shutdown-grace: '11m' is too long");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=shutdown-grace")))
                .isInstanceOf(LockConfigurationException.class).hasMessageContaining("'shutdown-grace' is reserved");
    }

    @Test
    void theMetricsApiIsChosenAutomaticallyUnlessNamed() {
        assertThat(BatonConfig.read(config()).metricsApi()).isEqualTo(BatonConfig.MetricsApi.AUTO);
        assertThat(BatonConfig.read(config("baton.metrics.api=opentelemetry")).metricsApi())
                .isEqualTo(BatonConfig.MetricsApi.OPENTELEMETRY);
        assertThat(BatonConfig.read(config("baton.metrics.api= MicroProfile-Metrics ")).metricsApi())
                .isEqualTo(BatonConfig.MetricsApi.MICROPROFILE_METRICS);
        assertThatThrownBy(() -> BatonConfig.read(config("baton.metrics.api=prometheus")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.metrics.api: 'prometheus' is not auto, opentelemetry or microprofile-metrics");
    }

    @Test
    void namedManagersInheritWhatTheyDoNotSet() {
        BatonConfig config = BatonConfig.read(config("baton.ttl=1m", "baton.prefix=app:", "baton.managers=reports, audit",
                "baton.reports.ttl=5m", "baton.reports.store=memory", "baton.audit.timeout=PT2S"));
        assertThat(config.managers()).containsOnlyKeys("", "reports", "audit");
        ManagerSettings reports = config.manager("reports").orElseThrow();
        assertThat(reports.ttlMillis()).isEqualTo(300_000);
        assertThat(reports.store()).contains("memory");
        assertThat(reports.prefix()).isEqualTo("app:");
        ManagerSettings audit = config.manager("audit").orElseThrow();
        assertThat(audit.ttlMillis()).isEqualTo(60_000);
        assertThat(audit.timeoutMillis()).isEqualTo(2_000);
        assertThat(config.manager("unknown")).isEqualTo(Optional.empty());
    }

    @Test
    void everyWrongValueIsReportedWithItsKeyAndValue() {
        assertThatThrownBy(() -> BatonConfig.read(config("baton.ttl=-5s", "baton.timeout=soon", "baton.store=no such",
                "baton.interrupt-on-loss=maybe", "baton.interceptor.priority=high", "baton.managers=ttl,ok,bad name")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.ttl").hasMessageContaining("'-5s'")
                .hasMessageContaining("baton.timeout").hasMessageContaining("'soon'")
                .hasMessageContaining("baton.store: 'no such'")
                .hasMessageContaining("baton.interrupt-on-loss: 'maybe'")
                .hasMessageContaining("baton.interceptor.priority: 'high'")
                .hasMessageContaining("'ttl' is reserved")
                .hasMessageContaining("'bad name' is not a valid manager name");
    }

    @Test
    void theRenewIntervalMustBeShorterThanTheTtl() {
        assertThatThrownBy(() -> BatonConfig.read(config("baton.ttl=10s", "baton.renew-interval=10s")))
                .hasMessageContaining("baton.renew-interval").hasMessageContaining("shorter than the ttl");
        ManagerSettings ok = BatonConfig.read(config("baton.ttl=10s", "baton.renew-interval=2s")).manager("").orElseThrow();
        assertThat(ok.renewIntervalMillis(10_000)).isEqualTo(2_000);
        // A lock with a shorter lease than the interval is renewed at a third of its own lease.
        assertThat(ok.renewIntervalMillis(900)).isEqualTo(300);
    }

    @Test
    void aNamedManagerWithAShorterTtlDeploysWithTheDefaultManagersRenewInterval() {
        // Valid for the default manager; the named one never set a renew interval of its own.
        BatonConfig config = BatonConfig.read(config("baton.renew-interval=20s", "baton.managers=fast", "baton.fast.ttl=6s"));
        ManagerSettings fast = config.manager("fast").orElseThrow();
        assertThat(fast.ttlMillis()).isEqualTo(6_000);
        assertThat(fast.renewIntervalMillis(6_000)).isEqualTo(2_000);
        assertThat(config.manager("").orElseThrow().renewIntervalMillis(30_000)).isEqualTo(20_000);
        // One it sets itself is still checked.
        assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=fast", "baton.fast.ttl=6s",
                "baton.fast.renew-interval=6s"))).hasMessageContaining("baton.fast.renew-interval");
    }

    @Test
    void aPrefixTooLongForAnyKeyIsRejected() {
        assertThatThrownBy(() -> BatonConfig.read(config("baton.prefix=" + "p".repeat(500))))
                .hasMessageContaining("baton.prefix");
    }

    @Test
    void aPrefixThatIsNotValidUtf16IsRejected() {
        // Every key would be refused at call time; the deployment fails instead, naming the key.
        assertThatThrownBy(() -> BatonConfig.read(config("baton.prefix=app\uD800:")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.prefix").hasMessageContaining("surrogate");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=eu", "baton.eu.prefix=eu\uDC00")))
                .hasMessageContaining("baton.eu.prefix");
        assertThat(BatonConfig.read(config("baton.prefix=\u00e9t\u00e9\uD83D\uDE00:")).manager("").orElseThrow().prefix())
                .isEqualTo("\u00e9t\u00e9\uD83D\uDE00:");
    }

    @Test
    void theInterceptorPriorityIsConfigurable() {
        assertThat(BatonConfig.read(config("baton.interceptor.priority=2500")).interceptorPriority()).isEqualTo(2500);
        assertThat(BatonConfig.interceptorPriority(config("baton.interceptor.priority=2500"))).isEqualTo(2500);
    }
}
