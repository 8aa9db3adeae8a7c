package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Markdown link checker against a fixture repository with good and broken links at known lines. */
class LinkCheckerTest {

    private final Path root = Fixtures.links();

    private LinkChecker check() {
        return new LinkChecker(root).check(List.of(root.resolve("README.md"), root.resolve("docs/guide.md")));
    }

    @Test
    void reportsExactlyTheBrokenLinksWithTheirLines() {
        assertThat(check().problems())
                .extracting(problem -> problem.substring(0, problem.indexOf(')') + 1))
                .containsExactly(
                        "README.md:13: (docs/missing.md)",
                        "README.md:14: (docs/guide.md#no-such-heading)",
                        "README.md:15: (docs/guide.md#setting-up-2)",
                        "README.md:16: (spec/src/main/asciidoc/spec.adoc#spec-store-nope)",
                        "README.md:17: (docs/target/guide.html)",
                        "README.md:18: (../shared/notes.md)",
                        "README.md:19: (/etc/hosts)",
                        "README.md:20: (examples/App.java#L99)",
                        "README.md:21: (#nope)",
                        "README.md:22: (docs/guide.md#raw-missing)");
    }

    @Test
    void saysWhatIsMissing() {
        assertThat(check().problems())
                .anySatisfy(p -> assertThat(p).endsWith("no file or folder docs/missing.md"))
                .anySatisfy(p -> assertThat(p).endsWith("no anchor #no-such-heading in docs/guide.md"))
                .anySatisfy(p -> assertThat(p)
                        .endsWith("no anchor #setting-up-2 in docs/guide.md (did you mean #setting-up-1?)"))
                .anySatisfy(
                        p -> assertThat(p).contains("no anchor #spec-store-nope in spec/src/main/asciidoc/spec.adoc"))
                .anySatisfy(p -> assertThat(p).contains("points into build output (docs/target/guide.html)"))
                .anySatisfy(p -> assertThat(p).contains("points outside the repository"))
                .anySatisfy(p -> assertThat(p).contains("an absolute path"))
                .anySatisfy(p -> assertThat(p).endsWith("#L99 is past the end of examples/App.java (3 lines)"))
                .anySatisfy(p -> assertThat(p).endsWith("no anchor #nope in README.md"));
    }

    @Test
    void countsRelativeLinksAndListsWebLinksWithoutMail() {
        LinkChecker checker = check();
        assertThat(checker.external()).containsExactly("https://example.org/page");
        // 20 relative links and images in the README, 2 in the guide; the mailto: and https: links are not counted
        assertThat(checker.checked()).isEqualTo(22);
    }

    @Test
    void headingIdsFollowGitHub() {
        assertThat(Markdown.anchors(root.resolve("docs/guide.md")))
                .containsExactly(
                        "a-guide", "setting-up", "setting-up-1", "log-messages", "baton-jpa-011", "baton-jpa-012");
    }

    @Test
    void githubSlugsDropPunctuationButKeepHyphensAndUnderscores() {
        assertThat(slug("The `@Synchronized` annotation: key_template, 409 & more!"))
                .isEqualTo("the-synchronized-annotation-key_template-409--more");
        assertThat(slug("Migrations (Flyway, Liquibase)")).isEqualTo("migrations-flyway-liquibase");
        assertThat(slug("The orders example (`examples/orders`)")).isEqualTo("the-orders-example-examplesorders");
    }

    private static String slug(String heading) {
        return Markdown.ids(Markdown.html(Markdown.parse("## " + heading)))
                .iterator()
                .next();
    }
}
