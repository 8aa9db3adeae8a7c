package dev.baton.docs;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and image of every Markdown document of the repository leads somewhere, fragment included
 * (see {@link LinkChecker}). Web links are listed in the output, not fetched.
 */
class LinksTest {

    @Test
    void everyLinkOfEveryDocumentResolves() {
        List<Path> documents = Documents.markdown();
        LinkChecker checker = new LinkChecker(Documents.root()).check(documents);
        System.out.printf(
                "LinksTest: %d relative links checked in %d documents, %d broken; %d web links, not fetched:%n",
                checker.checked(),
                documents.size(),
                checker.problems().size(),
                checker.external().size());
        checker.external().forEach(link -> System.out.println("  " + link));
        if (!checker.problems().isEmpty()) {
            fail(checker.problems().size() + " of " + checker.checked() + " links of the documents are broken:\n  "
                    + String.join("\n  ", checker.problems()));
        }
    }
}
