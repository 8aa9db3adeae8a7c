package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Every test of the TCK (store contract and runtime suite, as compiled into the artifact) carries exactly one
 * {@link TckRule} whose id is unique and well formed and whose assertion is named by a well-formed anchor, and
 * {@value TckRules#RESOURCE} lists exactly these rules. On a difference the expected list is written to
 * {@code target/expected-rules.txt}. That each anchor exists in the specification is {@link SpecCoverageTest}'s.
 */
class TckRulesTest {

    private static final Pattern ID = Pattern.compile("([SR])-(\\d+(?:\\.\\d+)?)-(\\d{2})");
    /** The specification's anchor scheme, {@code spec-<chapter>-<subject>}. */
    private static final Pattern ANCHOR = Pattern.compile("spec(?:-[a-z0-9]+){2,}");

    private static final List<String> problems = new ArrayList<>();
    private static final Map<String, List<String>> testsById = new LinkedHashMap<>();
    private static final List<TckRules.Rule> rules = new ArrayList<>();

    @BeforeAll
    static void scan() throws IOException, URISyntaxException {
        Path classes = Path.of(LockStoreContract.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        assertThat(classes).as("the TCK's classes, compiled in this module").isDirectory();
        List<Class<?>> testClasses;
        try (Stream<Path> files = Files.walk(classes)) {
            testClasses = files.filter(f -> f.toString().endsWith(".class"))
                    .map(f -> classes.relativize(f)
                            .toString()
                            .replace(f.getFileSystem().getSeparator(), "."))
                    .map(name -> name.substring(0, name.length() - ".class".length()))
                    .sorted()
                    .map(TckRulesTest::load)
                    .filter(type -> !Modifier.isAbstract(type.getModifiers()) && !type.isInterface())
                    .toList();
        }
        for (Class<?> type : testClasses) {
            for (Method method : tests(type)) {
                String test =
                        type.getName().substring("dev.baton.tck.".length()).replace('$', '.') + "#" + method.getName();
                TckRule rule = method.getAnnotation(TckRule.class);
                if (rule == null) {
                    problems.add(test + " has no @TckRule");
                    continue;
                }
                testsById.computeIfAbsent(rule.id(), id -> new ArrayList<>()).add(test);
                rules.add(new TckRules.Rule(rule.id(), rule.spec(), test));
                Matcher id = ID.matcher(rule.id());
                if (!id.matches()) {
                    problems.add(test + ": id " + rule.id() + " is not S-<section>-<nn> or R-<section>-<nn>");
                    continue;
                }
                if (!ANCHOR.matcher(rule.spec()).matches()) {
                    problems.add(test + ": spec = \"" + rule.spec() + "\" is not an anchor spec-<chapter>-<subject>");
                }
                boolean runtime = type.getName().startsWith("dev.baton.tck.runtime.");
                if (runtime != id.group(1).equals("R")) {
                    problems.add(test + ": id " + rule.id() + " must start with " + (runtime ? "R-" : "S-"));
                }
            }
        }
        rules.sort(Comparator.comparing(TckRulesTest::sortKey));
    }

    @Test
    void everyTestCarriesOneWellFormedRule() {
        assertThat(problems).isEmpty();
        assertThat(rules).as("rules found").hasSizeGreaterThan(90);
    }

    @Test
    void everyIdIsUnique() {
        assertThat(testsById.entrySet().stream().filter(e -> e.getValue().size() > 1))
                .as("ids of more than one test")
                .isEmpty();
    }

    @Test
    void theListedRulesAreExactlyTheRulesOfTheTests() throws IOException {
        List<String> expected = rules.stream().map(TckRules.Rule::line).toList();
        List<String> listed =
                TckRules.listed().values().stream().map(TckRules.Rule::line).toList();
        if (!listed.equals(expected)) {
            Path target = Path.of("target", "expected-rules.txt");
            Files.createDirectories(target.getParent());
            Files.writeString(target, String.join("\n", expected) + "\n");
        }
        assertThat(listed)
                .as("%s (the expected list is in target/expected-rules.txt)", TckRules.RESOURCE)
                .containsExactlyElementsOf(expected);
    }

    @Test
    void aRuleOfTheListIsFoundByItsId() {
        assertThat(TckRules.listed()).containsKeys("S-3.1-01", "R-4.1-06");
        assertThat(TckRules.listed().get("S-3.1-01"))
                .extracting(TckRules.Rule::spec, TckRules.Rule::test)
                .containsExactly(
                        "spec-store-acquire-free-key", "LockStoreContract.Acquire#freeKeyIsTakenWithAPositiveToken");
    }

    private static List<Method> tests(Class<?> type) {
        return ReflectionSupport.findMethods(
                type, m -> AnnotationSupport.isAnnotated(m, Testable.class), HierarchyTraversalMode.TOP_DOWN);
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, TckRulesTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** R before S; the id's first number as numbers (2.4 before 2.10); then the second. */
    private static String sortKey(TckRules.Rule rule) {
        Matcher id = ID.matcher(rule.id());
        if (!id.matches()) {
            return rule.id();
        }
        String section = Stream.of(id.group(2).split("\\."))
                .map(part -> String.format("%03d", Integer.parseInt(part)))
                .collect(Collectors.joining("."));
        return id.group(1) + section + "-" + id.group(3);
    }
}
