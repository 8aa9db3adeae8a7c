package dev.baton.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Fails a contract class that ran but checked nothing: when every rule selected for a {@link LockStoreContract}
 * subclass was skipped (a capability the store does not declare, {@code @Disabled}), the class itself fails
 * after its last rule, naming what was skipped. Without it such a run reports "Tests run: 3, Skipped: 3"
 * and a green build for a store nobody tested. Rules the vendor excluded by id ({@link TckExclusions}) are
 * not counted as skipped: a selection whose rules were all excluded passes, each reported as excluded.
 *
 * <p>It works as a Jupiter extension, not as a launcher listener, because JUnit ignores what a
 * {@code TestExecutionListener} throws (it only logs it): a failing container is what makes Surefire,
 * an IDE and the Launcher report a failure. It cannot see a contract class whose rules were all filtered
 * away before the run ({@code -Dgroups} or {@code -Dtest} matching none): JUnit does not run such a class
 * at all. Surefire's {@code failIfNoTests} catches that case (the documented pom sets it).
 */
final class RulesRanGuard implements TestWatcher, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RulesRanGuard.class);

    /** What the rules under one contract class did. */
    static final class Tally {
        final AtomicInteger ran = new AtomicInteger();
        final List<String> skipped = new ArrayList<>();
        final AtomicInteger excluded = new AtomicInteger();

        synchronized void skip(String rule, String why) {
            skipped.add(rule + " (" + why + ")");
        }

        synchronized List<String> skipped() {
            return List.copyOf(skipped);
        }
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        tally(context).ifPresent(tally -> tally.ran.incrementAndGet());
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        tally(context).ifPresent(tally -> tally.ran.incrementAndGet());
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        String why = cause == null || cause.getMessage() == null
                ? "aborted"
                : cause.getMessage().lines().findFirst().orElse("aborted");
        tally(context).ifPresent(tally -> tally.skip(context.getDisplayName(), why.strip()));
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        if (reason.filter(why -> why.startsWith(TckExclusions.EXCLUDED)).isPresent()) {
            tally(context).ifPresent(tally -> tally.excluded.incrementAndGet()); // the vendor's choice, reported
            return;
        }
        tally(context).ifPresent(tally -> tally.skip(context.getDisplayName(), reason.orElse("disabled")));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!isContractClass(context) || context.getExecutionException().isPresent()) {
            return; // a group of rules, or a class that already failed (its @BeforeAll, say) and says why
        }
        Tally tally = store(context);
        if (tally.ran.get() > 0) {
            return;
        }
        List<String> skipped = tally.skipped();
        if (skipped.isEmpty() && tally.excluded.get() > 0) {
            return; // every selected rule was excluded by id: deliberate, and each is reported as excluded
        }
        throw new AssertionError("No rule of the store contract ran for "
                + context.getRequiredTestClass().getName()
                + ": " + (skipped.size() + tally.excluded.get()) + " selected, all skipped"
                + (tally.excluded.get() > 0 ? " (" + tally.excluded.get() + " excluded by id)" : "")
                + (skipped.isEmpty()
                        ? ""
                        : " — " + String.join("; ", skipped.subList(0, Math.min(5, skipped.size())))
                                + (skipped.size() > 5 ? "; ..." : ""))
                + ". A run that checked nothing must not pass: select rules the store's capabilities cover"
                + " (e.g. -Dgroups=" + ContractTags.ACQUIRE + "), or run the whole suite.");
    }

    /**
     * The tally of the contract class a rule belongs to; empty for a test that is not a rule of the suite
     * (a subclass's own test method counts for nothing).
     */
    private static Optional<Tally> tally(ExtensionContext test) {
        if (test.getTestClass()
                .map(Class::getEnclosingClass)
                .filter(LockStoreContract.class::equals)
                .isEmpty()) {
            return Optional.empty();
        }
        Optional<ExtensionContext> contractClass = Optional.of(test);
        while (contractClass.isPresent() && !isContractClass(contractClass.get())) {
            contractClass = contractClass.get().getParent();
        }
        return contractClass.map(RulesRanGuard::store);
    }

    private static Tally store(ExtensionContext contractClass) {
        return contractClass.getStore(NAMESPACE).getOrComputeIfAbsent(Tally.class, key -> new Tally(), Tally.class);
    }

    /** A subclass of the suite, also one nested in a test class of the author's own (a matrix of backends). */
    private static boolean isContractClass(ExtensionContext context) {
        return context.getTestMethod().isEmpty()
                && context.getTestClass()
                        .filter(LockStoreContract.class::isAssignableFrom)
                        .isPresent();
    }
}
