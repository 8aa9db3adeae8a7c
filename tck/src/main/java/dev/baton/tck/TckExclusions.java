package dev.baton.tck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Skips the rules a vendor excluded by id. The file named by the system property (or JUnit configuration
 * parameter) {@value #EXCLUDES} lists one rule id per line, optionally followed by the reason; {@code #}
 * starts a comment:
 *
 * <pre>
 * # rules this runtime does not pass yet
 * R-4.1-02   no EJB container in this profile
 * S-9-08
 * </pre>
 *
 * <p>An excluded rule is reported as skipped, naming its id, the file and the reason, and the list of
 * excluded rules is printed once when the file is first read. An id that names no rule of the TCK
 * (a typo, a rule of another version) fails every rule, so a wrong exclusion never passes silently. A
 * runtime scenario class all of whose rules are excluded is skipped as a whole: it is not deployed.
 *
 * <p>Registered by {@link TckRule} on every rule; the runtime scenario classes register it too.
 */
public final class TckExclusions implements ExecutionCondition {

    /** System property or JUnit configuration parameter: the file of excluded rule ids. */
    public static final String EXCLUDES = "baton.tck.excludes";

    /** How the reason of an excluded rule starts. */
    static final String EXCLUDED = "Excluded by " + EXCLUDES;

    private static final Map<String, Map<String, String>> FILES = new ConcurrentHashMap<>();

    /** Created by JUnit. */
    public TckExclusions() {}

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<String> file =
                context.getConfigurationParameter(EXCLUDES).map(String::strip).filter(s -> !s.isEmpty());
        if (file.isEmpty()) {
            return ConditionEvaluationResult.enabled("no " + EXCLUDES);
        }
        Map<String, String> excluded = FILES.computeIfAbsent(file.get(), TckExclusions::read);
        if (context.getTestMethod().isPresent()) {
            return ruleOf(context.getTestMethod().get())
                    .filter(rule -> excluded.containsKey(rule.id()))
                    .map(rule ->
                            ConditionEvaluationResult.disabled(reason(rule.id(), file.get(), excluded.get(rule.id()))))
                    .orElseGet(() -> ConditionEvaluationResult.enabled("not excluded"));
        }
        return context.getTestClass()
                .filter(type -> !isStoreContract(type))
                .map(type -> rulesOf(type))
                .filter(ids -> !ids.isEmpty() && excluded.keySet().containsAll(ids))
                .map(ids -> ConditionEvaluationResult.disabled(
                        EXCLUDED + " (" + file.get() + "): every rule of the class, " + String.join(", ", ids)))
                .orElseGet(() -> ConditionEvaluationResult.enabled("not every rule excluded"));
    }

    /**
     * @param method a test method
     * @return its rule
     */
    static Optional<TckRule> ruleOf(Method method) {
        return AnnotationSupport.findAnnotation(method, TckRule.class);
    }

    /**
     * @param type a test class
     * @return the ids of its rules, inherited ones included
     */
    static List<String> rulesOf(Class<?> type) {
        List<String> ids = new ArrayList<>();
        for (Method method : ReflectionSupport.findMethods(
                type, m -> AnnotationSupport.isAnnotated(m, Testable.class), HierarchyTraversalMode.TOP_DOWN)) {
            ruleOf(method).ifPresent(rule -> ids.add(rule.id()));
        }
        return ids;
    }

    /** The store contract's groups keep their rules' own skips: {@link RulesRanGuard} counts each. */
    private static boolean isStoreContract(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            if (LockStoreContract.class.isAssignableFrom(c)) {
                return true;
            }
        }
        return false;
    }

    private static String reason(String id, String file, String why) {
        return EXCLUDED + " (" + file + "): " + id + (why.isEmpty() ? "" : " — " + why);
    }

    /** Reads and checks an exclusion file; prints what it excludes. */
    private static Map<String, String> read(String file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    EXCLUDES + " names " + Path.of(file).toAbsolutePath() + ", which cannot be read: " + e, e);
        }
        Map<String, String> excluded = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        Map<String, TckRules.Rule> rules = TckRules.listed();
        for (String line : lines) {
            int comment = line.indexOf('#');
            String text = (comment >= 0 ? line.substring(0, comment) : line).strip();
            if (text.isEmpty()) {
                continue;
            }
            String[] idAndReason = text.split("\\s+", 2);
            String id = idAndReason[0];
            if (!rules.containsKey(id)) {
                unknown.add(id);
            }
            excluded.put(id, idAndReason.length > 1 ? idAndReason[1].strip() : "");
        }
        if (!unknown.isEmpty()) {
            throw new IllegalStateException(EXCLUDES + " file " + file + " names rules this TCK does not have: "
                    + String.join(", ", unknown) + " (the ids are listed in " + TckRules.RESOURCE
                    + " of baton-tck)");
        }
        StringBuilder report = new StringBuilder("[baton-tck] " + EXCLUDES + "=" + file + ": ")
                .append(excluded.size())
                .append(excluded.size() == 1 ? " rule excluded" : " rules excluded");
        excluded.forEach((id, why) -> report.append(System.lineSeparator())
                .append("[baton-tck]   ")
                .append(rules.get(id).line())
                .append(why.isEmpty() ? "" : "  — " + why));
        System.out.println(report);
        return Collections.unmodifiableMap(excluded);
    }
}
