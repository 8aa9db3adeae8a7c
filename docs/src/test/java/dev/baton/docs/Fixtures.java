package dev.baton.docs;

import java.nio.file.Path;

/** The test documents of the checkers, under {@code docs/src/test/resources/}. */
final class Fixtures {

    private Fixtures() {}

    /** A small repository whose README links well and badly on purpose. */
    static Path links() {
        return Documents.root().resolve("docs/src/test/resources/links");
    }

    /** A stand-in for the spec module's rendered specification. */
    static Path renderedSpec() {
        return Documents.root().resolve("docs/src/test/resources/site-spec");
    }

    /** Source files with tagged regions. */
    static Path snippets() {
        return Documents.root().resolve("docs/src/test/resources/snippets");
    }
}
