package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.tck.TestLockStore.Flaw;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Proof that the suite bites: the rules of {@link LockStoreContract} run, through the JUnit Platform
 * Launcher, against a {@link TestLockStore} with one {@link Flaw}, and the rule named for that flaw must
 * fail. A suite that passed a broken store would be worthless.
 */
class TckCatchesFlawedStoresTest {

    /** Every capability a store may declare together: {@code ENDS_WITH_CONNECTION} excludes {@code PERSISTENT}. */
    private static final Set<StoreCapability> ALL =
            EnumSet.complementOf(EnumSet.of(StoreCapability.ENDS_WITH_CONNECTION));

    private static final Set<StoreCapability> CONNECTION_BOUND =
            EnumSet.complementOf(EnumSet.of(StoreCapability.PERSISTENT));
    private static final Set<StoreCapability> NONE = EnumSet.noneOf(StoreCapability.class);

    static Stream<Arguments> flaws() {
        return Stream.of(
                arguments(
                        Flaw.RACY_ACQUIRE,
                        ALL,
                        List.of(ContractTags.CONCURRENCY),
                        List.of(
                                "exactlyOneOfManyConcurrentCallersTakesAFreeKey",
                                "exactlyOneOfManyConcurrentCallersTakesAnExpiredKey")),
                arguments(
                        Flaw.RELEASE_RESETS_COUNTER,
                        ALL,
                        List.of(ContractTags.FENCING),
                        List.of(
                                "releaseNeverResetsTheTokenCounter",
                                "tokensStrictlyIncreaseAcrossAThousandMixedCycles")),
                arguments(
                        Flaw.RENEW_REVIVES,
                        ALL,
                        List.of(ContractTags.RENEW),
                        List.of("renewAfterExpiryFailsAndDoesNotRevive", "renewAllRenewsExactlyTheLeasesStillHeld")),
                arguments(
                        Flaw.RENEW_NEVER_SHORTENS,
                        NONE,
                        List.of(ContractTags.RENEW),
                        List.of("aShorterRenewalFreesTheKeyWhenItRunsOutNotAtTheFirstLease")),
                arguments(
                        Flaw.FOLDS_CASE,
                        ALL,
                        List.of(ContractTags.KEYS),
                        List.of("keysDifferingOnlyInCaseAreDifferentLocks")),
                arguments(
                        Flaw.TRIMS_SPACES,
                        ALL,
                        List.of(ContractTags.KEYS),
                        List.of(
                                "keysDifferingOnlyInTrailingOrLeadingSpaceAreDifferentLocks",
                                "whitespaceOnlyKeysAreKeptExactly")),
                arguments(
                        Flaw.NON_ATOMIC_RELEASE,
                        ALL,
                        List.of(ContractTags.RELEASE),
                        List.of("staleReleaseRacingATakeoverNeverDeletesTheSuccessorsLock")),
                arguments(
                        Flaw.REPEATING_TOKENS,
                        ALL,
                        List.of(ContractTags.FENCING, ContractTags.CONCURRENCY),
                        List.of(
                                "tokensStrictlyIncreaseAcrossAThousandMixedCycles",
                                "concurrentAcquireAndReleaseKeepsMutualExclusionAndNeverRepeatsAToken")),
                arguments(
                        Flaw.REENTRANT,
                        ALL,
                        List.of(ContractTags.ACQUIRE),
                        List.of("liveKeyIsNotTakenAgainByTheSameOwner")),
                arguments(
                        Flaw.TRUNCATES_KEYS,
                        ALL,
                        List.of(ContractTags.KEYS),
                        List.of(
                                "fiveHundredCharAsciiKeysAreKeptExactly",
                                "fiveHundredCharMultibyteKeysAreKeptExactly")),
                arguments(
                        Flaw.FORGETS_TOKENS_ON_RESTART,
                        ALL,
                        List.of(ContractTags.PERSISTENCE),
                        List.of("newStoreInstanceContinuesAboveEveryEarlierToken")),
                arguments(
                        Flaw.INT_TTL,
                        ALL,
                        List.of(ContractTags.DURATIONS),
                        List.of("ttlOfThirtyDaysWorks", "ttlOfTheMaximumDurationWorks")),
                arguments(
                        Flaw.RELEASE_BY_ANY_OWNER,
                        ALL,
                        List.of(ContractTags.RELEASE),
                        List.of("anotherOwnersReleaseFailsAndTheLockStaysHeld")),
                arguments(Flaw.DROPS_NUL, ALL, List.of(ContractTags.KEYS), List.of("nulIsKeptExactly")),
                arguments(
                        Flaw.LISTENERS_STAY,
                        ALL,
                        List.of(ContractTags.CAPABILITIES),
                        List.of("releaseNotificationTellsListenersOfARelease")),
                arguments(
                        Flaw.REFUSAL_EXTENDS_LEASE,
                        NONE,
                        List.of(ContractTags.ACQUIRE),
                        List.of("refusedAcquireChangesNothing")),
                arguments(
                        Flaw.WORKS_AFTER_CLOSE,
                        ALL,
                        List.of(ContractTags.CLOSE),
                        List.of("everyOperationOnAClosedStoreFailsWithALockStoreException")),
                arguments(
                        Flaw.PLAIN_ACQUIRE_IGNORES_TURNS,
                        ALL,
                        List.of(ContractTags.TURNS),
                        List.of("aLiveTurnKeepsAFreedKeyForItsWaiter", "leaveTurnFreesOnlyItsWaitersTurn")),
                arguments(
                        Flaw.TURNS_NEVER_EXPIRE,
                        ALL,
                        List.of(ContractTags.TURNS),
                        List.of("anExpiredTurnHoldsNobodyUp")),
                arguments(
                        Flaw.FIRST_WAITER_KEEPS_TURN,
                        ALL,
                        List.of(ContractTags.TURNS),
                        List.of("aWaiterThatWaitedLongerTakesTheTurn", "anOlderWaiterTakesAFreedKeyFromAYoungerTurn")),
                arguments(
                        Flaw.INSPECT_SEES_EXPIRED,
                        ALL,
                        List.of(ContractTags.INSPECT),
                        List.of("aKeyWithoutALiveLockHasNoHolder")),
                arguments(
                        Flaw.INSPECT_REMAINING_IN_SECONDS,
                        ALL,
                        List.of(ContractTags.INSPECT),
                        List.of("theLiveHolderIsReportedWithItsOwnerTokenAndRemainingLease")),
                arguments(
                        Flaw.INSPECT_RENEWS,
                        ALL,
                        List.of(ContractTags.INSPECT),
                        List.of("inspectingALockChangesNothing")),
                arguments(
                        Flaw.INSPECT_MASKS_OWNER,
                        ALL,
                        List.of(ContractTags.INSPECT),
                        List.of(
                                "theLiveHolderIsReportedWithItsOwnerTokenAndRemainingLease",
                                "releasingAsTheInspectedOwnerFreesTheKeyAndTokensKeepIncreasing")),
                arguments(
                        Flaw.LOCKS_OUTLIVE_CLOSE,
                        CONNECTION_BOUND,
                        List.of(ContractTags.ENDS_WITH_CONNECTION, ContractTags.CLOSE),
                        List.of(
                                "newStoreInstanceContinuesAboveEveryEarlierTokenAndTakesTheClosedInstancesKeysAtOnce",
                                "everyOperationOnAClosedStoreFailsWithALockStoreException")),
                arguments(
                        Flaw.ANY_INSTANCE_RENEWS,
                        CONNECTION_BOUND,
                        List.of(ContractTags.ENDS_WITH_CONNECTION),
                        List.of("onlyTheInstanceThatTookALockRenewsOrReleasesIt")),
                arguments(
                        Flaw.SHARED_OVER_LIMIT,
                        ALL,
                        List.of(ContractTags.SHARED),
                        List.of(
                                "aSharedKeyIsTakenUpToItsLimitAndRefusedBeyond",
                                "racingSharedCallersTakeExactlyTheLimit")),
                arguments(
                        Flaw.EXCLUSIVE_BESIDE_SHARED,
                        ALL,
                        List.of(ContractTags.SHARED),
                        List.of(
                                "anExclusiveLeaseKeepsSharedOnesOutAndTheReverse",
                                "anExclusiveCallerRacingSharedOnesWinsAloneOrLoses")),
                arguments(
                        Flaw.SHARED_NEVER_EXPIRE,
                        ALL,
                        List.of(ContractTags.SHARED),
                        List.of("anExpiredSharedLeaseNoLongerCounts", "renewingOneSharedLeaseExtendsItAlone")),
                arguments(
                        Flaw.NON_ATOMIC_HAND_OVER,
                        ALL,
                        List.of(ContractTags.HAND_OVER),
                        List.of("racingCallersNeverTakeAKeyBetweenItsReleaseAndItsHandOver")),
                arguments(
                        Flaw.HAND_OVER_IGNORES_TURNS,
                        ALL,
                        List.of(ContractTags.HAND_OVER),
                        List.of("aKeyKeptForAnotherWaitersTurnIsReleasedNotHandedOver")),
                arguments(
                        Flaw.HAND_OVER_REFUSES_FREE_KEY,
                        ALL,
                        List.of(ContractTags.HAND_OVER),
                        List.of("aCallerThatDoesNotHoldAFreeKeyHandsItOverAsTheNextOwnersAcquisition")),
                arguments(
                        Flaw.SHARED_IGNORES_TURNS,
                        ALL,
                        List.of(ContractTags.SHARED),
                        List.of(
                                "aWaitingWriterHoldingTheTurnKeepsNewReadersOutAndGetsTheKeyWhenTheReadersAreGone",
                                "aSharedWaiterHoldingTheTurnTakesTheFirstPlaceFreed")),
                arguments(
                        Flaw.FORGETS_TOKENS_ON_RESTART,
                        CONNECTION_BOUND,
                        List.of(ContractTags.ENDS_WITH_CONNECTION),
                        List.of(
                                "newStoreInstanceContinuesAboveEveryEarlierTokenAndTakesTheClosedInstancesKeysAtOnce")));
    }

    @ParameterizedTest(name = "{0} is caught by {3}")
    @MethodSource("flaws")
    void flawIsCaughtByTheRuleNamedForIt(
            Flaw flaw, Set<StoreCapability> capabilities, List<String> tags, List<String> rules) {
        FlawedStoreContract.configure(capabilities, flaw);
        Outcome outcome;
        try {
            outcome = run(tags);
        } finally {
            FlawedStoreContract.configure(ALL);
        }

        assertThat(outcome.failedContainers)
                .as("classes of the suite that could not run")
                .isEmpty();
        assertThat(outcome.failed)
                .as("rules failing for a store with flaw %s; their reports: %s", flaw, outcome.reasons)
                .containsAll(rules);
    }

    @Test
    void aStoreThatSharesLocksWithoutWaitingTurnsIsCaught() {
        FlawedStoreContract.configure(EnumSet.of(StoreCapability.SHARED_LOCKS));
        Outcome outcome;
        try {
            outcome = run(List.of(ContractTags.CAPABILITIES));
        } finally {
            FlawedStoreContract.configure(ALL);
        }

        assertThat(outcome.failed)
                .as(
                        "rules failing for a store declaring SHARED_LOCKS without WAITING_TURNS; their reports: %s",
                        outcome.reasons)
                .containsExactly("aStoreThatSharesLocksAlsoKeepsWaitingTurns");
    }

    @ParameterizedTest(name = "the unflawed store passes {0} (declaring {1})")
    @MethodSource("dev.baton.tck.TckCatchesFlawedStoresTest#tags")
    void unflawedStorePassesTheSameRules(String tag, Set<StoreCapability> capabilities) {
        FlawedStoreContract.configure(capabilities);

        Outcome outcome = run(List.of(tag));

        assertThat(outcome.reasons).as("rules failing for a correct store").isEmpty();
        assertThat(outcome.passed).isNotEmpty();
    }

    @Test
    void suiteClosesEveryStoreInstanceItCreatesOnce() {
        FlawedStoreContract.configure(ALL);
        FlawedStoreContract.BACKENDS.clear();

        Outcome outcome = run(List.of(ContractTags.PERSISTENCE, ContractTags.ACQUIRE, ContractTags.CAPABILITIES));

        assertThat(outcome.reasons).isEmpty();
        assertThat(FlawedStoreContract.BACKENDS).isNotEmpty().allSatisfy(backend -> {
            assertThat(backend.opened.get()).as("instances created").isPositive();
            assertThat(backend.closed.get()).as("instances closed").isEqualTo(backend.opened.get());
            assertThat(backend.closedAgain.get())
                    .as("instances closed a second time")
                    .isZero();
        });
    }

    /** Each tag of a flaw, with the capabilities the flawed store declared. */
    static Stream<Arguments> tags() {
        return flaws().flatMap(arguments -> ((List<?>) arguments.get()[2])
                        .stream().map(tag -> List.of(tag, arguments.get()[1])))
                .distinct()
                .map(pair -> arguments(pair.get(0), pair.get(1)));
    }

    private static Outcome run(List<String> tags) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(FlawedStoreContract.class))
                .filters(TagFilter.includeTags(tags))
                .build();
        Launcher launcher = LauncherFactory.create();
        Outcome outcome = new Outcome();
        launcher.execute(request, outcome);
        return outcome;
    }

    /** The suite against a {@link TestLockStore} with the flaw the running test configured. */
    static class FlawedStoreContract extends LockStoreContract {

        private static volatile Set<StoreCapability> capabilities = ALL;
        private static volatile Set<Flaw> flaws = EnumSet.noneOf(Flaw.class);

        static final List<TestLockStore.Backend> BACKENDS = new CopyOnWriteArrayList<>();

        private final TestLockStore.Backend backend = new TestLockStore.Backend();

        FlawedStoreContract() {
            BACKENDS.add(backend);
        }

        static void configure(Set<StoreCapability> declared, Flaw... with) {
            capabilities = declared;
            flaws = with.length == 0 ? EnumSet.noneOf(Flaw.class) : EnumSet.copyOf(List.of(with));
        }

        @Override
        protected LockStore createStore() {
            return new TestLockStore(backend, capabilities, flaws);
        }
    }

    /** Which tests of the run passed and failed, by method name. */
    private static final class Outcome implements TestExecutionListener {
        final List<String> passed = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();
        final List<String> failedContainers = new ArrayList<>();

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isContainer()) {
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    failedContainers.add(
                            test.getDisplayName() + ": " + result.getThrowable().orElse(null));
                }
                return;
            }
            String name = test.getSource()
                    .filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
                    .map(source -> ((org.junit.platform.engine.support.descriptor.MethodSource) source).getMethodName())
                    .orElse(test.getDisplayName());
            switch (result.getStatus()) {
                case SUCCESSFUL -> passed.add(name);
                case FAILED -> {
                    failed.add(name);
                    reasons.add(name + ": "
                            + result.getThrowable().map(Throwable::getMessage).orElse("?"));
                }
                case ABORTED -> {} // a capability the configured store does not declare
            }
        }
    }
}
