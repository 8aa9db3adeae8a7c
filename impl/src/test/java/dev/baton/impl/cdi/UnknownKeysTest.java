package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.tck.DeclaredSettings;
import dev.baton.tck.LogCapture;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code baton.*} key that nothing of Baton reads (a misspelling, a manager not listed in {@code baton.managers},
 * a store setting the store does not have) is reported at deployment: one WARN per key, naming it and, when one is
 * close, the known key it was probably meant to be. The deployment goes on.
 */
class UnknownKeysTest {

    /** A deployment needs one bean class. */
    @ApplicationScoped
    public static class Unrelated {}

    @TempDir
    Path directory;

    @AfterEach
    void clean() {
        TestConfig.uninstall();
    }

    @Test
    void aMisspelledKeyWarnsNamingTheKeyItWasMeantToBe() {
        assertThat(findings("baton.tll=5s"))
                .singleElement()
                .asString()
                .contains("BATON-080", "baton.tll", "did you mean baton.ttl?");
    }

    @Test
    void aKeyFarFromEveryKnownOneWarnsWithoutAGuess() {
        assertThat(findings("baton.completely-unrelated=1"))
                .singleElement()
                .asString()
                .contains("BATON-080", "baton.completely-unrelated")
                .doesNotContain("did you mean");
    }

    @Test
    void keysOfAListedNamedManagerDoNotWarn() {
        assertThat(findings(
                        "baton.managers=reports, audit",
                        "baton.reports.ttl=5m",
                        "baton.reports.poll-jitter=0.2",
                        "baton.audit.store=memory",
                        "baton.audit.renew-threads=2"))
                .isEmpty();
    }

    @Test
    void aKeyOfAManagerThatIsNotListedWarnsThatThereIsNoSuchManager() {
        assertThat(findings("baton.managers=reports", "baton.audit.ttl=5m"))
                .singleElement()
                .asString()
                .contains("BATON-081", "baton.audit.ttl", "no manager named 'audit'", "baton.managers");
    }

    @Test
    void aMisspelledManagerNameIsCaughtWithTheKeyOfTheListedOne() {
        assertThat(findings("baton.managers=reports", "baton.reprots.ttl=5m"))
                .singleElement()
                .asString()
                .contains("BATON-081", "no manager named 'reprots'", "did you mean baton.reports.ttl?");
    }

    @Test
    void aMisspelledFileStoreSettingWarnsNamingTheStoresSetting() {
        assertThat(findings("baton.store=file", "baton.file.directory=" + directory, "baton.file.dirctory=/tmp/x"))
                .singleElement()
                .asString()
                .contains("BATON-080", "baton.file.dirctory", "did you mean baton.file.directory?");
    }

    @Test
    void aMisspelledStoreSettingOfANamedManagerWarnsNamingTheManagersSetting() {
        assertThat(findings(
                        "baton.managers=reports",
                        "baton.reports.store=file",
                        "baton.reports.file.directory=" + directory,
                        "baton.reports.file.dirctory=/tmp/x"))
                .singleElement()
                .asString()
                .contains("BATON-080", "baton.reports.file.dirctory", "did you mean baton.reports.file.directory?");
    }

    @Test
    void eachUnknownKeyWarnsOnceAndTheDeploymentGoesOn() {
        List<String> findings = findings("baton.tll=5s", "baton.timout=5s", "baton.ttl=5s");
        assertThat(findings).hasSize(2);
        assertThat(findings.get(0)).contains("baton.timout", "did you mean baton.timeout?");
        assertThat(findings.get(1)).contains("baton.tll", "did you mean baton.ttl?");
    }

    @Test
    void keysOutsideBatonAndPerMethodOverridesAreNotChecked() {
        assertThat(findings(
                        "BATON_TTL=5s",
                        "other.ttl=1",
                        "Synchronized/timeout=2s",
                        "baton.jobs.Nightly/run/Exclusive/hold=1m"))
                .isEmpty();
    }

    /** The stores in modules of their own, whose factories are not on this module's class path. */
    private static final List<String> STORE_MODULES = List.of("jpa", "redis", "zookeeper", "etcd", "mongodb");

    /**
     * Every key the reference's configuration tables document ({@code docs/reference.md}, its
     * {@code | key | default | meaning |} tables) is one Baton knows, or one it leaves unchecked ({@code baton.tck.*}):
     * the reference and the code cannot drift apart. The keys of stores whose module is not on this module's class
     * path ({@link #STORE_MODULES}) are checked by their modules' tests and by the {@code docs} module's
     * {@code ReferenceTest}.
     */
    @Test
    void everyKeyTheReferenceDocumentsIsRecognised() throws IOException {
        List<String> documented = DeclaredSettings.documentedKeys(Path.of("..", "docs", "reference.md"));
        List<String> here = documented.stream()
                .filter(key -> STORE_MODULES.stream().noneMatch(store -> key.startsWith("baton." + store + ".")))
                // a store setting of a named manager needs the manager to have a store of its own: not here
                .filter(key -> !key.contains("<store>"))
                .toList();
        assertThat(here)
                .as("the keys of the reference's engine, manager, file store and TCK tables")
                .hasSizeGreaterThan(20);
        List<String> config = new ArrayList<>();
        config.add("baton.managers=reports");
        config.add("baton.store=memory");
        for (String key : here) {
            String concrete = key.replace("<manager>", "reports").replace("<setting>", "ttl");
            if (!concrete.equals("baton.managers") && !concrete.equals("baton.store")) {
                config.add(concrete + "=" + valueFor(concrete));
            }
        }
        assertThat(findings(config.toArray(String[]::new)))
                .as("warnings for keys the reference documents: %s", here)
                .isEmpty();
    }

    /** A valid value, so that the deployment starts and only the key check speaks. */
    private String valueFor(String key) {
        if (key.endsWith(".file.directory")) {
            return directory.toString();
        }
        if (key.endsWith("enabled") || key.endsWith("force-release") || key.endsWith("interrupt-on-loss")) {
            return "false";
        }
        if (key.endsWith("priority") || key.endsWith("renew-threads")) {
            return "2";
        }
        if (key.endsWith("poll-jitter")) {
            return "0.5";
        }
        if (key.endsWith("metrics.api")) {
            return "auto";
        }
        if (key.endsWith("log.keys")) {
            return "hash";
        }
        if (key.endsWith("http.conflict.key")) {
            return "none";
        }
        if (key.endsWith("health.details")) {
            return "true";
        }
        if (key.endsWith("force-release.role")) {
            return "lock-admin";
        }
        if (key.endsWith(".prefix")) {
            return "p:";
        }
        if (key.endsWith("renew-interval")) {
            return "1s";
        }
        return "20s";
    }

    /** Boots a container with this configuration and returns Baton's unknown-key warnings, in order. */
    private static List<String> findings(String... config) {
        TestConfig.install(config);
        try (LogCapture log = LogCapture.start("dev.baton");
                WeldContainer container = Deployments.weld(Unrelated.class).initialize()) {
            return log.messages().stream()
                    .filter(line -> line.startsWith("BATON-080") || line.startsWith("BATON-081"))
                    .toList();
        }
    }
}
