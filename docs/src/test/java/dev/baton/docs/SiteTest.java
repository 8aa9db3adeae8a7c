package dev.baton.docs;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Renders the site ({@link Site}) into {@code docs/target/site/} and checks its links ({@link SiteChecker}). Open
 * {@code docs/target/site/index.html} to read it. The specification must have been rendered first, by the spec
 * module in the same build ({@code ./mvnw -pl docs -am verify}, or {@code -pl spec,docs} once the other modules are installed); {@code -Dbaton.docs.site.skip=true} skips the
 * site.
 */
class SiteTest {

    @Test
    void theSiteRendersAndEveryLinkOfItResolves() throws IOException {
        Path root = Documents.root();
        Path spec = Documents.renderedSpecification().getParent();
        Path out = Path.of(System.getProperty(
                "baton.docs.site", root.resolve("docs/target/site").toString()));
        long started = System.nanoTime();
        List<Path> pages = new Site(root, out).render(Documents.markdown(), spec);
        SiteChecker checker = new SiteChecker(out).check();
        System.out.printf(
                "SiteTest: %d pages rendered into %s in %d ms; %d links checked, %d broken; %d web links, not fetched%n",
                pages.size(),
                out,
                (System.nanoTime() - started) / 1_000_000,
                checker.checked(),
                checker.problems().size(),
                checker.external().size());

        List<String> problems = new ArrayList<>();
        for (Path document : List.of(Path.of("README.md"), Path.of("docs/README.md"), Path.of("docs/reference.md"))) {
            if (!Files.isRegularFile(root.resolve(document))) {
                problems.add("no " + document + ", so the site has no " + Site.page(document)
                        + ", which the header of every page should link to");
            }
        }
        problems.addAll(checker.problems());
        if (!problems.isEmpty()) {
            fail(problems.size() + " problems with the site " + out + ":\n  " + String.join("\n  ", problems));
        }
    }
}
