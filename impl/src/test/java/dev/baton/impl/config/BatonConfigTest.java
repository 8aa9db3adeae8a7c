package dev.baton.impl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.Synchronized;
import dev.baton.spi.KeyFormat;
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
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(map, "test", 500))
                .build();
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
        assertThat(settings.renewThreads()).isEqualTo(4);
        assertThat(BatonConfig.interceptorPriority(config())).isEqualTo(Synchronized.DEFAULT_PRIORITY);
        assertThat(config.managers()).containsOnlyKeys("");
    }

    @Test
    void theShutdownGraceIsFiveSecondsByDefaultMayBeZeroAndIsValidated() {
        assertThat(BatonConfig.read(config()).shutdownGraceMillis()).isEqualTo(5_000);
        assertThat(BatonConfig.read(config("baton.shutdown-grace=2s")).shutdownGraceMillis())
                .isEqualTo(2_000);
        assertThat(BatonConfig.read(config("baton.shutdown-grace=PT1M")).shutdownGraceMillis())
                .isEqualTo(60_000);
        assertThat(BatonConfig.read(config("baton.shutdown-grace=0")).shutdownGraceMillis())
                .isZero();
        assertThat(BatonConfig.read(config("baton.shutdown-grace=0s")).shutdownGraceMillis())
                .isZero();
        assertThat(BatonConfig.read(config("baton.shutdown-grace=PT0S")).shutdownGraceMillis())
                .isZero();
        assertThatThrownBy(() -> BatonConfig.read(config("baton.shutdown-grace=-1s")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.shutdown-grace")
                .hasMessageContaining("'-1s'");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.shutdown-grace=soon")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.shutdown-grace")
                .hasMessageContaining("'soon'");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.shutdown-grace=11m")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.shutdown-grace: '11m' is too long");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=shutdown-grace")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'shutdown-grace' is reserved");
    }

    @Test
    void theMetricsApiIsChosenAutomaticallyUnlessNamed() {
        assertThat(BatonConfig.read(config()).metricsApi()).isEqualTo(BatonConfig.MetricsApi.AUTO);
        assertThat(BatonConfig.read(config("baton.metrics.api=opentelemetry")).metricsApi())
                .isEqualTo(BatonConfig.MetricsApi.OPENTELEMETRY);
        assertThat(BatonConfig.read(config("baton.metrics.api= MicroProfile-Metrics "))
                        .metricsApi())
                .isEqualTo(BatonConfig.MetricsApi.MICROPROFILE_METRICS);
        assertThatThrownBy(() -> BatonConfig.read(config("baton.metrics.api=prometheus")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining(
                        "baton.metrics.api: 'prometheus' is not auto, opentelemetry or microprofile-metrics");
    }

    @Test
    void whatLeavesTheProcessIsAsTodayByDefault() {
        BatonConfig config = BatonConfig.read(config());
        assertThat(config.logKeys()).isEqualTo(KeyFormat.PLAIN);
        assertThat(config.conflictKey()).isEqualTo(BatonConfig.ConflictKey.KEY);
        assertThat(BatonConfig.conflictKey(config())).isEqualTo(BatonConfig.ConflictKey.KEY);
        assertThat(config.healthDetails()).isFalse();
        assertThat(config.forceReleaseRoles()).isEmpty();
    }

    @Test
    void eachFormOfEachSettingIsRead() {
        assertThat(BatonConfig.read(config("baton.log.keys=plain")).logKeys()).isEqualTo(KeyFormat.PLAIN);
        assertThat(BatonConfig.read(config("baton.log.keys=hash")).logKeys()).isEqualTo(KeyFormat.HASH);
        assertThat(BatonConfig.read(config("baton.log.keys= Masked ")).logKeys())
                .isEqualTo(KeyFormat.MASKED);
        for (BatonConfig.ConflictKey form : BatonConfig.ConflictKey.values()) {
            String property = "baton.http.conflict.key=" + form.value().toUpperCase(java.util.Locale.ROOT);
            assertThat(BatonConfig.read(config(property)).conflictKey()).isEqualTo(form);
            assertThat(BatonConfig.conflictKey(config(property))).isEqualTo(form);
        }
        assertThat(BatonConfig.read(config("baton.health.details=true")).healthDetails())
                .isTrue();
        assertThat(BatonConfig.read(config("baton.admin.force-release.role= ops , admin"))
                        .forceReleaseRoles())
                .containsExactly("ops", "admin");
    }

    @Test
    void aWrongFormIsReportedWithItsKeyAndTheAllowedValues() {
        assertRejected(new String[] {"baton.log.keys=sha256"}, "baton.log.keys: 'sha256' is not plain, hash or masked");
        assertRejected(
                new String[] {"baton.http.conflict.key=masked"},
                "baton.http.conflict.key: 'masked' is not key, hash or none");
        assertRejected(new String[] {"baton.health.details=yes"}, "baton.health.details: 'yes' is not true or false");
        assertRejected(
                new String[] {"baton.admin.force-release.role=ops,,admin"},
                "baton.admin.force-release.role: 'ops,,admin' is not a comma-separated list of role names");
        assertRejected(
                new String[] {"baton.admin.force-release.role=lock admins"},
                "baton.admin.force-release.role: 'lock admins'");
        assertRejected(new String[] {"baton.managers=log"}, "'log' is reserved");
        assertRejected(new String[] {"baton.managers=http"}, "'http' is reserved");
        // The mapper's own reading never fails: the deployment has reported the value.
        assertThat(BatonConfig.conflictKey(config("baton.http.conflict.key=masked")))
                .isEqualTo(BatonConfig.ConflictKey.KEY);
    }

    @Test
    void renewThreadsAreAWholeNumberFromOneTo64AndNamedManagersInheritThem() {
        BatonConfig config = BatonConfig.read(
                config("baton.renew-threads=16", "baton.managers=reports,audit", "baton.audit.renew-threads=1"));
        assertThat(config.manager("").orElseThrow().renewThreads()).isEqualTo(16);
        assertThat(config.manager("reports").orElseThrow().renewThreads()).isEqualTo(16);
        assertThat(config.manager("audit").orElseThrow().renewThreads()).isOne();
        for (String bad : new String[] {"0", "65", "-1", "four", "2.5"}) {
            assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=jobs", "baton.jobs.renew-threads=" + bad)))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.jobs.renew-threads: '" + bad + "' is not a whole number from 1 to 64");
        }
        assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=renew-threads")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("'renew-threads' is reserved");
    }

    @Test
    void namedManagersInheritWhatTheyDoNotSet() {
        BatonConfig config = BatonConfig.read(config(
                "baton.ttl=1m",
                "baton.prefix=app:",
                "baton.managers=reports, audit",
                "baton.reports.ttl=5m",
                "baton.reports.store=memory",
                "baton.audit.timeout=PT2S"));
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
        assertThatThrownBy(() -> BatonConfig.read(config(
                        "baton.ttl=-5s",
                        "baton.timeout=soon",
                        "baton.store=no such",
                        "baton.interrupt-on-loss=maybe",
                        "baton.interceptor.priority=high",
                        "baton.managers=ttl,ok,bad name")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.ttl")
                .hasMessageContaining("'-5s'")
                .hasMessageContaining("baton.timeout")
                .hasMessageContaining("'soon'")
                .hasMessageContaining("baton.store: 'no such'")
                .hasMessageContaining("baton.interrupt-on-loss: 'maybe'")
                .hasMessageContaining("baton.interceptor.priority: 'high'")
                .hasMessageContaining("'ttl' is reserved")
                .hasMessageContaining("'bad name' is not a valid manager name");
    }

    @Test
    void theMessageListsEveryProblemInTheOrderTheKeysAreRead() {
        // the default manager, the list of managers, each named manager, then the keys read once
        assertThatThrownBy(() -> BatonConfig.read(config(
                        "baton.store=no such",
                        "baton.ttl=10s",
                        "baton.renew-interval=10s",
                        "baton.managers=ttl, jobs,bad name,jobs",
                        "baton.jobs.renew-threads=0",
                        "baton.jobs.poll-jitter=2",
                        "baton.jobs.prefix=" + "p".repeat(500),
                        "baton.interceptor.priority=high",
                        "baton.shutdown-grace=11m",
                        "baton.exclusive.hold=soon",
                        "baton.exclusive.priority= x ",
                        "baton.admin.force-release=yes",
                        "baton.health.enabled=no",
                        "baton.metrics.enabled=1",
                        "baton.metrics.api=prometheus")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessage("Invalid Baton configuration: "
                        + "baton.store: 'no such' is not a store name; "
                        + "baton.renew-interval: 10000 ms must be shorter than the ttl (10000 ms); "
                        + "baton.managers: 'ttl' is reserved (it is a configuration key of its own); "
                        + "baton.managers: 'bad name' is not a valid manager name (letters, digits, '_' and '-'); "
                        + "baton.jobs.prefix: 500 chars leaves no room for keys (at most 500 chars with the prefix); "
                        + "Invalid jitter '2' for baton.jobs.poll-jitter: must be from 0 to 1; "
                        + "baton.jobs.renew-threads: '0' is not a whole number from 1 to 64; "
                        + "baton.interceptor.priority: 'high' is not an integer; "
                        + "baton.shutdown-grace: '11m' is too long: a shutdown waits at most 10m for the work under"
                        + " held locks; "
                        + "Invalid duration 'soon' for baton.exclusive.hold: not a duration (use e.g. 500ms, 30s, 5m,"
                        + " 1h, 2d or ISO-8601 PT30S); "
                        + "baton.exclusive.priority: 'x' is not an integer; "
                        + "baton.admin.force-release: 'yes' is not true or false; "
                        + "baton.health.enabled: 'no' is not true or false; "
                        + "baton.metrics.enabled: '1' is not true or false; "
                        + "baton.metrics.api: 'prometheus' is not auto, opentelemetry or microprofile-metrics");
    }

    @Test
    void theRenewIntervalMustBeShorterThanTheTtl() {
        assertThatThrownBy(() -> BatonConfig.read(config("baton.ttl=10s", "baton.renew-interval=10s")))
                .hasMessageContaining("baton.renew-interval")
                .hasMessageContaining("shorter than the ttl");
        ManagerSettings ok = BatonConfig.read(config("baton.ttl=10s", "baton.renew-interval=2s"))
                .manager("")
                .orElseThrow();
        assertThat(ok.renewIntervalMillis(10_000)).isEqualTo(2_000);
        // A lock with a shorter lease than the interval is renewed at a third of its own lease.
        assertThat(ok.renewIntervalMillis(900)).isEqualTo(300);
    }

    @Test
    void aNamedManagerWithAShorterTtlDeploysWithTheDefaultManagersRenewInterval() {
        // Valid for the default manager; the named one never set a renew interval of its own.
        BatonConfig config =
                BatonConfig.read(config("baton.renew-interval=20s", "baton.managers=fast", "baton.fast.ttl=6s"));
        ManagerSettings fast = config.manager("fast").orElseThrow();
        assertThat(fast.ttlMillis()).isEqualTo(6_000);
        assertThat(fast.renewIntervalMillis(6_000)).isEqualTo(2_000);
        assertThat(config.manager("").orElseThrow().renewIntervalMillis(30_000)).isEqualTo(20_000);
        // One it sets itself is still checked.
        assertThatThrownBy(() -> BatonConfig.read(
                        config("baton.managers=fast", "baton.fast.ttl=6s", "baton.fast.renew-interval=6s")))
                .hasMessageContaining("baton.fast.renew-interval");
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
                .hasMessageContaining("baton.prefix")
                .hasMessageContaining("surrogate");
        assertThatThrownBy(() -> BatonConfig.read(config("baton.managers=eu", "baton.eu.prefix=eu\uDC00")))
                .hasMessageContaining("baton.eu.prefix");
        assertThat(BatonConfig.read(config("baton.prefix=\u00e9t\u00e9\uD83D\uDE00:"))
                        .manager("")
                        .orElseThrow()
                        .prefix())
                .isEqualTo("\u00e9t\u00e9\uD83D\uDE00:");
    }

    @Test
    void theInterceptorPriorityIsConfigurable() {
        assertThatCode(() -> BatonConfig.read(config("baton.interceptor.priority=2500")))
                .doesNotThrowAnyException();
        assertThat(BatonConfig.interceptorPriority(config("baton.interceptor.priority=2500")))
                .isEqualTo(2500);
        // read before the configuration is validated: a wrong value is the default until it fails the deployment
        assertThat(BatonConfig.interceptorPriority(config("baton.interceptor.priority=high")))
                .isEqualTo(Synchronized.DEFAULT_PRIORITY);
        assertThat(BatonConfig.exclusivePriority(config("baton.exclusive.priority= 7 ")))
                .isEqualTo(7);
    }

    @Test
    void thePollPolicyIsFiveToFiveHundredMillisecondsWithHalfJitterByDefault() {
        assertThat(BatonConfig.read(config()).manager("").orElseThrow().poll()).isEqualTo(new PollPolicy(5, 500, 0.5));
    }

    @Test
    void aNamedManagerSetsItsOwnPollPolicyAndInheritsWhatItDoesNotSet() {
        BatonConfig config = BatonConfig.read(config(
                "baton.poll-max-interval=200ms",
                "baton.poll-jitter=0.2",
                "baton.managers=fast, quiet",
                "baton.fast.poll-min-interval=1ms",
                "baton.fast.poll-max-interval=20ms",
                "baton.quiet.poll-min-interval=PT0.1S",
                "baton.quiet.poll-jitter=1"));
        assertThat(config.manager("").orElseThrow().poll()).isEqualTo(new PollPolicy(5, 200, 0.2));
        assertThat(config.manager("fast").orElseThrow().poll()).isEqualTo(new PollPolicy(1, 20, 0.2));
        assertThat(config.manager("quiet").orElseThrow().poll()).isEqualTo(new PollPolicy(100, 200, 1));
    }

    @Test
    void everyBadPollValueIsReportedWithItsKeyAndValue() {
        assertRejected(new String[] {"baton.poll-min-interval=0"}, "baton.poll-min-interval", "'0'", "at least 1 ms");
        assertRejected(new String[] {"baton.poll-max-interval=-10ms"}, "baton.poll-max-interval", "'-10ms'");
        assertRejected(
                new String[] {"baton.poll-max-interval=soon"}, "baton.poll-max-interval", "'soon'", "not a duration");
        assertRejected(
                new String[] {"baton.managers=fast", "baton.fast.poll-jitter=1.5"},
                "baton.fast.poll-jitter",
                "'1.5'",
                "from 0 to 1");
        assertRejected(new String[] {"baton.poll-jitter=-0.1"}, "baton.poll-jitter", "'-0.1'");
        assertRejected(new String[] {"baton.poll-jitter=NaN"}, "baton.poll-jitter", "'NaN'", "not a decimal fraction");
        assertRejected(
                new String[] {"baton.poll-min-interval=2s", "baton.poll-max-interval=1s"},
                "the maximum poll interval 1000 ms (baton.poll-max-interval) is shorter than the minimum 2000 ms"
                        + " (baton.poll-min-interval)");
        // A maximum below the inherited minimum says which key to set as well.
        assertRejected(
                new String[] {"baton.managers=fast", "baton.fast.poll-max-interval=2ms"},
                "the maximum poll interval 2 ms (baton.fast.poll-max-interval) is shorter than the minimum 5 ms"
                        + " (inherited; set baton.fast.poll-min-interval too)");
        assertRejected(new String[] {"baton.managers=poll-jitter"}, "'poll-jitter' is reserved");
    }

    private static void assertRejected(String[] properties, String... fragments) {
        assertThatThrownBy(() -> BatonConfig.read(config(properties)))
                .as(String.join(", ", properties))
                .isInstanceOf(LockConfigurationException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(fragments));
    }

    @Test
    void aJitterIsADecimalFractionFromZeroToOne() {
        assertThat(PollPolicy.parseJitter("0", "k")).isZero();
        assertThat(PollPolicy.parseJitter(" 1 ", "k")).isEqualTo(1.0);
        assertThat(PollPolicy.parseJitter("1.0", "k")).isEqualTo(1.0);
        assertThat(PollPolicy.parseJitter(".25", "k")).isEqualTo(0.25);
        for (String bad : new String[] {"", "1.01", "2", "-0", "1e-1", "0x1p-1", "Infinity", "25%", "0,5"}) {
            assertThatThrownBy(() -> PollPolicy.parseJitter(bad, "k"))
                    .as(bad)
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("'" + bad + "' for k");
        }
    }
}
