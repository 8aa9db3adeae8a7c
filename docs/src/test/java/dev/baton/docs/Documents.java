package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** The repository's Markdown documents: the README, the guides under {@code docs/} and the modules' own pages. */
final class Documents {

    /** The link checkers' test documents, broken on purpose. */
    private static final Path FIXTURES = Path.of("docs", "src", "test", "resources");

    private Documents() {}

    /** The repository's root, from the build ({@code baton.docs.root}), or the parent folder when run from an IDE. */
    static Path root() {
        String configured = System.getProperty("baton.docs.root");
        Path root = (configured == null || configured.isBlank() ? Path.of("..") : Path.of(configured))
                .toAbsolutePath()
                .normalize();
        if (!Files.isRegularFile(root.resolve("mvnw")) || !Files.isDirectory(root.resolve("docs"))) {
            throw new IllegalStateException(
                    "baton.docs.root=" + root + " is not the repository's root (no mvnw or docs/ there)");
        }
        return root;
    }

    /**
     * The specification as the spec module renders it ({@code spec/target/generated-docs/baton-spec.html}). Its
     * absence fails the calling test, naming the command that renders it, unless {@code -Dbaton.docs.site.skip=true}
     * asks to leave the rendered documents out: then the test is reported skipped, never passed.
     */
    static Path renderedSpecification() {
        Assumptions.assumeFalse(Boolean.getBoolean("baton.docs.site.skip"), "baton.docs.site.skip=true");
        Path html = root().resolve("spec/target/generated-docs/baton-spec.html");
        if (!Files.isRegularFile(html)) {
            throw new AssertionError("The specification is not rendered: there is no " + root().relativize(html)
                    + ". Build it with the documents: ./mvnw -B -ntp -pl docs -am verify"
                    + " (not with -Dasciidoctor.skip=true), or leave the rendered documents out with"
                    + " -Dbaton.docs.site.skip=true.");
        }
        return html;
    }

    /** Every {@code .md} file of the repository, outside build output, version control and test fixtures. */
    static List<Path> markdown() {
        Path root = root();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> file.getFileName().toString().endsWith(".md"))
                    .filter(file -> !excluded(root.relativize(file)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean excluded(Path relative) {
        if (relative.startsWith(FIXTURES)) {
            return true;
        }
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.startsWith(".") || name.equals("node_modules")) {
                return true;
            }
        }
        return false;
    }
}
