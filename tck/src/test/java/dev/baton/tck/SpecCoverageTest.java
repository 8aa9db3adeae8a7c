package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The TCK and Baton's specification (the {@code baton-spec} artifact, read from the class path) cover each other:
 * every rule of {@value TckRules#RESOURCE} names the anchor of an assertion that exists, and every assertion is
 * checked by at least one rule or says why it is not ({@code _Not checked by the TCK: <reason>._}). The coverage
 * table (each assertion with its rules, or its reason) is printed on every run.
 */
class SpecCoverageTest {

    private static final Specification SPECIFICATION = Specification.fromClassPath();

    @Test
    void theSpecificationIsWellFormed() {
        assertThat(SPECIFICATION.problems())
                .as("problems in %s and the files it includes", Specification.MAIN)
                .isEmpty();
        assertThat(SPECIFICATION.assertions()).as("assertions found").hasSizeGreaterThan(50);
    }

    @Test
    void everyRuleNamesAnAssertionAndEveryAssertionIsCheckedOrSaysWhyNot() {
        System.out.println("[baton-tck] the specification's assertions and the rules that check them:");
        System.out.print(SPECIFICATION.coverageTable(TckRules.listed()));

        assertThat(SPECIFICATION.missing(TckRules.listed()))
                .as("between %s and %s", TckRules.RESOURCE, Specification.MAIN)
                .isEmpty();
    }

    // The checks above bite: the same reading of a small specification, broken one way at a time.

    private static final String MAIN = """
            = A specification

            include::_chapter.adoc[]
            """;
    private static final String CHAPTER = """
            == A chapter

            [[spec-store-checked]]**spec-store-checked**: A store MUST do this.

            [[spec-store-not-checked]]**spec-store-not-checked**: A store SHOULD do that, over
            two lines. +
            _Not checked by the TCK: a reason
            that spans two lines._

            Informative text, with a `MUST` in code.

            [cols="1,1"]
            |===
            | MUST in a table | is an example
            |===
            """;

    @Test
    void aWellFormedSpecificationWhoseAssertionsAreCoveredHasNothingMissing() {
        Specification spec = spec(CHAPTER);

        assertThat(spec.problems()).isEmpty();
        assertThat(spec.assertions().keySet()).containsExactly("spec-store-checked", "spec-store-not-checked");
        assertThat(spec.assertions().get("spec-store-not-checked").reason()).isEqualTo("a reason that spans two lines");
        assertThat(spec.missing(rules("spec-store-checked"))).isEmpty();
        assertThat(spec.coverageTable(rules("spec-store-checked")))
                .contains("spec-store-checked", "S-1-01", "not checked: a reason that spans two lines")
                .contains("2 assertions: 1 checked by 1 rules, 1 not checked by the TCK");
    }

    @Test
    void aRuleNamingAnAnchorThatDoesNotExistIsMissing() {
        assertThat(spec(CHAPTER).missing(rules("spec-store-checked", "spec-store-gone")))
                .containsExactly("rule S-1-02 (Test#rule2) names spec-store-gone, which is no assertion of the"
                        + " specification");
    }

    @Test
    void anAssertionWithNeitherRuleNorReasonIsMissing() {
        assertThat(spec(CHAPTER).missing(rules()))
                .containsExactly("assertion spec-store-checked (_chapter.adoc:3) is checked by no rule and does not"
                        + " say why (_Not checked by the TCK: <reason>._)");
    }

    @Test
    void anAssertionWithARuleAndAReasonIsMissing() {
        assertThat(spec(CHAPTER).missing(rules("spec-store-checked", "spec-store-not-checked")))
                .singleElement(STRING)
                .contains("spec-store-not-checked", "[S-1-02]", "says it is not checked");
    }

    @Test
    void aKeyWordOutsideAnAssertionIsAProblem() {
        assertThat(spec(CHAPTER + "\nA runtime MUST do more, without an anchor.\n")
                        .problems())
                .singleElement(STRING)
                .contains("_chapter.adoc:17", "MUST in a paragraph that is not an assertion");
    }

    @Test
    void anAnchorLabelledWithAnotherAnchorOrUsedTwiceIsAProblem() {
        Specification spec = spec(CHAPTER
                + "\n[[spec-store-a]]**spec-store-b**: A store MUST.\n"
                + "\n[[spec-store-checked]]**spec-store-checked**: Again.\n");

        assertThat(spec.problems())
                .containsExactly(
                        "_chapter.adoc:17: the assertion's anchor spec-store-a is labelled spec-store-b",
                        "_chapter.adoc:19: the anchor spec-store-checked is used twice");
    }

    @Test
    void aMissingIncludeIsAProblem() {
        assertThat(Specification.read("main.adoc", name -> name.equals("main.adoc") ? MAIN : null)
                        .problems())
                .containsExactly("main.adoc:3: the included file _chapter.adoc is missing");
    }

    private static Specification spec(String chapter) {
        Map<String, String> files = Map.of("main.adoc", MAIN, "_chapter.adoc", chapter);
        return Specification.read("main.adoc", files::get);
    }

    /** One rule per anchor, S-1-01, S-1-02, ..., each of a test Test#rule1, Test#rule2, .... */
    private static Map<String, TckRules.Rule> rules(String... anchors) {
        Map<String, TckRules.Rule> rules = new LinkedHashMap<>();
        List<String> list = List.of(anchors);
        for (int i = 0; i < list.size(); i++) {
            String id = String.format("S-1-%02d", i + 1);
            rules.put(id, new TckRules.Rule(id, list.get(i), "Test#rule" + (i + 1)));
        }
        return rules;
    }
}
