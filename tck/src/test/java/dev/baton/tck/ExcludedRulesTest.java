package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.THROWABLE;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.baton.tck.RulesRanGuardTest.NoCapabilities;
import dev.baton.tck.RulesRanGuardTest.Run;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;

/**
 * Rules excluded by id ({@value TckExclusions#EXCLUDES}) are skipped and reported, the others run, the
 * guard against a run that checked nothing treats them as the vendor's choice, and a wrong id fails the run.
 * The suite runs through the JUnit Platform Launcher against a correct store, as Surefire runs it.
 */
class ExcludedRulesTest {

    /** The rules of the {@code owners} group. */
    private static final String OWNERS_EXACT = "S-2.1-09";

    private static final String OWNERS_SIXTY_FOUR = "S-2.1-10";

    @TempDir
    Path directory;

    @Test
    void anExcludedRuleIsSkippedNamingItsIdFileAndReasonAndTheOthersRun() throws IOException {
        Path file = excludes("# owners, partly", OWNERS_EXACT + "   not yet, see issue 12");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        Run run;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            run = run(file, ContractTags.OWNERS);
        } finally {
            System.setOut(out);
        }

        assertThat(run.rules).containsExactly("ownerOfSixtyFourPrintableCharsIsAccepted()=SUCCESSFUL");
        assertThat(run.skipped).containsExactly("ownersAreComparedExactly()");
        assertThat(run.skipReasons.get("ownersAreComparedExactly()"))
                .startsWith("Excluded by baton.tck.excludes")
                .contains(file.toString(), OWNERS_EXACT, "not yet, see issue 12");
        assertThat(run.contractClass(NoCapabilities.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .as("the run's output")
                .contains("baton.tck.excludes=" + file + ": 1 rule excluded")
                .contains(
                        OWNERS_EXACT,
                        "spec-model-owner-exact",
                        "LockStoreContract.Owners#ownersAreComparedExactly",
                        "not yet");
    }

    @Test
    void aSelectionWhoseRulesWereAllExcludedPasses() throws IOException {
        Run run = run(excludes(OWNERS_EXACT, OWNERS_SIXTY_FOUR + " # no reason"), ContractTags.OWNERS);

        assertThat(run.rules).isEmpty();
        assertThat(run.skipped).hasSize(2);
        assertThat(run.skipReasons.values()).allMatch(reason -> reason.startsWith(TckExclusions.EXCLUDED));
        assertThat(run.contractClass(NoCapabilities.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void rulesSkippedForAMissingCapabilityStillFailTheGuardBesideExcludedOnes() throws IOException {
        Run run =
                run(excludes(OWNERS_EXACT, OWNERS_SIXTY_FOUR), ContractTags.OWNERS + " | " + ContractTags.PERSISTENCE);

        assertThat(run.rules).isEmpty();
        assertThat(run.contractClass(NoCapabilities.class)).satisfies(result -> {
            assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
            assertThat(result.getThrowable())
                    .get()
                    .asInstanceOf(THROWABLE)
                    .hasMessageContaining("5 selected, all skipped (2 excluded by id)")
                    .hasMessageContaining("PERSISTENT");
        });
    }

    @Test
    void anIdThatNamesNoRuleFailsTheRulesNamingIt() throws IOException {
        Run run = run(excludes(OWNERS_EXACT, "S-2.1-99", "owners"), ContractTags.OWNERS);

        assertThat(run.rules).hasSize(2).allSatisfy(rule -> assertThat(rule).endsWith("=FAILED"));
        assertThat(run.failures)
                .isNotEmpty()
                .allSatisfy(failure -> assertThat(failure)
                        .hasMessageContaining("names rules this TCK does not have: S-2.1-99, owners"));
    }

    @Test
    void aRuntimeScenarioWhoseRulesAreAllExcludedIsNotDeployed() throws IOException {
        Run run = RulesRanGuardTest.run(
                List.of(selectClass("dev.baton.tck.runtime.smoke.SmokeTest")),
                null,
                Map.of(TckExclusions.EXCLUDES, excludes("R-6-01 no HTTP here").toString()));

        assertThat(run.rules)
                .as("nothing ran: Arquillian, with no container here, would have failed")
                .isEmpty();
        assertThat(run.skipReasons.get("SmokeTest"))
                .startsWith(TckExclusions.EXCLUDED)
                .contains("every rule of the class", "R-6-01");
    }

    private Run run(Path excludes, String tags) {
        return RulesRanGuardTest.run(
                List.of(selectClass(NoCapabilities.class)), tags, Map.of(TckExclusions.EXCLUDES, excludes.toString()));
    }

    private Path excludes(String... lines) throws IOException {
        Path file = Files.createTempFile(directory, "excludes", ".txt");
        return Files.write(file, List.of(lines));
    }
}
