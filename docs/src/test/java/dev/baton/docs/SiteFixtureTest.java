package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The site of the fixture repository: its pages, its rewritten links and the broken ones its checker reports. */
class SiteFixtureTest {

    @TempDir
    Path out;

    private final Path root = Fixtures.links();

    private List<Path> render() throws IOException {
        return new Site(root, out)
                .render(List.of(root.resolve("README.md"), root.resolve("docs/guide.md")), Fixtures.renderedSpec());
    }

    @Test
    void pagesKeepTheFolderStructureAndLinksLeadToPages() throws IOException {
        assertThat(render())
                .containsExactly(Path.of("index.html"), Path.of("docs/guide.html"), Path.of("examples/index.html"));
        String home = Files.readString(out.resolve("index.html"));
        assertThat(home)
                .contains("<title>Fixture</title>")
                .contains("<link rel=\"stylesheet\" href=\"baton.css\">")
                .contains("href=\"docs/guide.html#setting-up\"")
                .contains("<a href=\"docs/guide.html#setting-up\">raw HTML</a>")
                .contains("href=\"spec/baton-spec.html#spec-store-acquire\"")
                .contains("href=\"examples/index.html\"")
                .contains("href=\"examples/App.java#L2\"")
                .contains("src=\"images/logo.svg\"")
                .contains("href=\"docs/missing.md\"");
        String guide = Files.readString(out.resolve("docs/guide.html"));
        assertThat(guide)
                .contains("href=\"../baton.css\"")
                .contains("<a href=\"../index.html\">Baton</a>")
                .contains("<a href=\"../spec/baton-spec.html\">Specification</a>")
                .contains("href=\"../spec/baton-spec.html\">the specification</a>")
                .contains("<h2 id=\"setting-up-1\">")
                .contains("<a id=\"baton-jpa-011\"></a>");
        assertThat(out.resolve("examples/App.java")).hasSameTextualContentAs(root.resolve("examples/App.java"));
        assertThat(out.resolve("images/logo.svg")).exists();
        assertThat(out.resolve("spec/baton-spec.html")).exists();
        assertThat(out.resolve("baton.css")).exists();
        assertThat(Files.readString(out.resolve("examples/index.html"))).contains("href=\"App.java\"");
    }

    @Test
    void theCheckerReportsExactlyTheBrokenLinksOfTheSite() throws IOException {
        render();
        SiteChecker checker = new SiteChecker(out).check();
        assertThat(checker.problems())
                .extracting(problem -> problem.substring(problem.indexOf('(')))
                .containsExactlyInAnyOrder(
                        "(docs/missing.md) no file docs/missing.md in the site",
                        "(docs/guide.html#no-such-heading) no id #no-such-heading in docs/guide.html",
                        "(docs/guide.html#setting-up-2) no id #setting-up-2 in docs/guide.html",
                        "(spec/baton-spec.html#spec-store-nope) no id #spec-store-nope in spec/baton-spec.html",
                        "(docs/target/guide.html) no file docs/target/guide.html in the site",
                        "(../shared/notes.md) leads outside the site",
                        "(/etc/hosts) an absolute path, which leaves the site",
                        "(#nope) no id #nope in index.html",
                        "(docs/guide.html#raw-missing) no id #raw-missing in docs/guide.html");
        assertThat(checker.problems()).allSatisfy(problem -> assertThat(problem).startsWith("index.html:"));
        assertThat(checker.external()).containsExactly("https://example.org/page");
    }
}
