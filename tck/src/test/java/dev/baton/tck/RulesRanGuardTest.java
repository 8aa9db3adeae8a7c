package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.THROWABLE;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedMethod;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The guard against a green run that checked nothing ({@link RulesRanGuard}): the suite runs through the
 * JUnit Platform Launcher, as Surefire runs it, and the contract class's own result is read.
 */
class RulesRanGuardTest {

    @Test
    void aContractClassWhoseSelectedRulesWereAllSkippedFailsNamingThem() {
        Run run = run(List.of(selectClass(NoCapabilities.class)), ContractTags.PERSISTENCE);

        assertThat(run.rules).as("rules run").isEmpty();
        assertThat(run.skipped).as("rules skipped").hasSize(3);
        assertThat(run.contractClass(NoCapabilities.class)).isNotNull().satisfies(result -> {
            assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
            assertThat(result.getThrowable())
                    .get()
                    .asInstanceOf(THROWABLE)
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("No rule of the store contract ran for " + NoCapabilities.class.getName())
                    .hasMessageContaining("3 selected, all skipped")
                    .hasMessageContaining("newStoreInstanceContinuesAboveEveryEarlierToken")
                    .hasMessageContaining("PERSISTENT");
        });
    }

    @Test
    void oneSelectedRuleThatRunsIsEnough() {
        Run run = run(
                List.of(selectNestedMethod(
                        List.of(NoCapabilities.class),
                        LockStoreContract.Acquire.class,
                        "freeKeyIsTakenWithAPositiveToken",
                        "")),
                null);

        assertThat(run.rules).containsExactly("freeKeyIsTakenWithAPositiveToken()=SUCCESSFUL");
        assertThat(run.contractClass(NoCapabilities.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void skippedRulesBesideRulesThatRanPass() {
        Run run =
                run(List.of(selectClass(NoCapabilities.class)), ContractTags.PERSISTENCE + " | " + ContractTags.OWNERS);

        assertThat(run.skipped).hasSize(3);
        assertThat(run.rules).hasSize(2).allSatisfy(rule -> assertThat(rule).endsWith("=SUCCESSFUL"));
        assertThat(run.contractClass(NoCapabilities.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void eachContractClassIsCountedOnItsOwn() {
        Run run = run(
                List.of(selectClass(NoCapabilities.class), selectClass(AllCapabilities.class)),
                ContractTags.PERSISTENCE);

        assertThat(run.contractClass(AllCapabilities.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(run.contractClass(NoCapabilities.class).getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
    }

    @Test
    void aContractNestedInAnAuthorsTestClassIsCheckedToo() {
        Run run = run(List.of(selectClass(Matrix.class)), ContractTags.PERSISTENCE);

        assertThat(run.rules).isEmpty();
        assertThat(run.contractClass(Matrix.Contract.class)).isNotNull().satisfies(result -> {
            assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
            assertThat(result.getThrowable())
                    .get()
                    .asInstanceOf(THROWABLE)
                    .hasMessageContaining("No rule of the store contract ran for " + Matrix.Contract.class.getName());
        });
        assertThat(run.contractClass(Matrix.class).getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void aSubclassesOwnTestIsNotARuleOfTheSuite() {
        Run run = run(List.of(selectClass(WithATestOfItsOwn.class)), ContractTags.PERSISTENCE + " | own");

        assertThat(run.rules).containsExactly("ownTest()=SUCCESSFUL");
        assertThat(run.contractClass(WithATestOfItsOwn.class).getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
    }

    @Test
    void aClassThatFailedBeforeItsRulesReportsItsOwnFailureOnly() {
        Run run;
        BackendDoesNotStart.failing = true;
        try {
            run = run(List.of(selectClass(BackendDoesNotStart.class)), null);
        } finally {
            BackendDoesNotStart.failing = false;
        }

        assertThat(run.contractClass(BackendDoesNotStart.class)).satisfies(result -> {
            assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
            assertThat(result.getThrowable())
                    .get()
                    .asInstanceOf(THROWABLE)
                    .hasMessage("the backend did not start")
                    .satisfies(thrown -> assertThat(thrown.getSuppressed()).isEmpty());
        });
    }

    private static Run run(List<? extends DiscoverySelector> selectors, String tagExpression) {
        return run(selectors, tagExpression, Map.of());
    }

    /** Runs the selected tests, as Surefire would, with these JUnit configuration parameters. */
    static Run run(List<? extends DiscoverySelector> selectors, String tagExpression, Map<String, String> parameters) {
        LauncherDiscoveryRequestBuilder request =
                LauncherDiscoveryRequestBuilder.request().selectors(selectors).configurationParameters(parameters);
        if (tagExpression != null) {
            request.filters(TagFilter.includeTags(tagExpression));
        }
        LauncherDiscoveryRequest built = request.build();
        Run run = new Run();
        LauncherFactory.create().execute(built, run);
        return run;
    }

    /** The results of one launch: rules that ran, rules skipped (aborted or disabled), and each test class's own result. */
    static final class Run implements TestExecutionListener {
        final List<String> rules = new CopyOnWriteArrayList<>();
        final List<String> skipped = new CopyOnWriteArrayList<>();
        final Map<String, String> skipReasons = new ConcurrentHashMap<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final Map<String, TestExecutionResult> classes = new ConcurrentHashMap<>();

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest() && result.getStatus() == TestExecutionResult.Status.ABORTED) {
                skipped.add(test.getDisplayName());
            } else if (test.isTest()) {
                rules.add(test.getDisplayName() + "=" + result.getStatus());
                result.getThrowable().ifPresent(failures::add);
            } else {
                test.getSource()
                        .filter(ClassSource.class::isInstance)
                        .map(ClassSource.class::cast)
                        .ifPresent(source -> classes.put(source.getClassName(), result));
            }
        }

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            skipped.add(test.getDisplayName());
            skipReasons.put(test.getDisplayName(), reason);
        }

        TestExecutionResult contractClass(Class<?> type) {
            return classes.get(type.getName());
        }
    }

    /** A correct store that declares no capability. */
    static class NoCapabilities extends LockStoreContract {
        private final TestLockStore.Backend backend = new TestLockStore.Backend();

        @Override
        protected LockStore createStore() {
            return new TestLockStore(
                    backend, EnumSet.noneOf(StoreCapability.class), EnumSet.noneOf(TestLockStore.Flaw.class));
        }
    }

    /** A correct store that declares every capability. */
    static class AllCapabilities extends LockStoreContract {
        private final TestLockStore.Backend backend = new TestLockStore.Backend();

        @Override
        protected LockStore createStore() {
            return new TestLockStore(
                    backend, EnumSet.allOf(StoreCapability.class), EnumSet.noneOf(TestLockStore.Flaw.class));
        }
    }

    /** An author's test class with the suite as one of its nested groups (as jpa-store's matrix does). */
    static class Matrix {
        @Nested
        class Contract extends NoCapabilities {}
    }

    /** A subclass with a test of its own beside the suite's rules. */
    static class WithATestOfItsOwn extends NoCapabilities {
        @Test
        @Tag("own")
        void ownTest() {
            assertThat(createStore()).isNotNull();
        }
    }

    /**
     * A subclass whose backend fails to start (only when the test above says so: Surefire runs nested
     * classes too under {@code -Dtest='*#rule'}): its own failure is the report, not "no rule ran".
     */
    static class BackendDoesNotStart extends NoCapabilities {
        static volatile boolean failing;

        @BeforeAll
        static void startBackend() {
            if (failing) {
                throw new IllegalStateException("the backend did not start");
            }
        }
    }
}
