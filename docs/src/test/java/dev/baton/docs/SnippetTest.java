package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Snippet}: a tagged region of a source file, as the documents include it. */
class SnippetTest {

    private final Path root = Fixtures.snippets();

    private List<String> lines(String reference) {
        return Snippet.parse(reference).lines(root);
    }

    @Test
    void parsesPathAndRegion() {
        assertThat(Snippet.parse("a/B.java#pay")).isEqualTo(new Snippet("a/B.java", "pay"));
        assertThat(Snippet.parse("a/pom.xml")).isEqualTo(new Snippet("a/pom.xml", null));
        assertThat(Snippet.parse("a/B.java#pay")).hasToString("a/B.java#pay");
    }

    @Test
    void aRegionWithoutItsMarkersNorTheMarkersOfRegionsInsideItDedented() {
        assertThat(lines("Sample.java#outer")).containsExactly("void outer() {", "    int inner = 1;", "}");
        assertThat(lines("Sample.java#inner")).containsExactly("int inner = 1;");
        assertThat(lines("sample.xml#dependency"))
                .containsExactly("<dependency>", "  <artifactId>baton-impl</artifactId>", "</dependency>");
        assertThat(lines("sample.properties#store")).containsExactly("baton.store=jpa");
    }

    @Test
    void aWholeFileWithoutAnyMarker() {
        assertThat(lines("sample.properties")).containsExactly("baton.store=jpa");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "Sample.java#missing | Sample.java has no region tag::missing[]",
                "Sample.java#unclosed | Sample.java never ends the region 'unclosed' (end::unclosed[])",
                "Sample.java#early | Sample.java ends the region 'early' before it opens it",
                "Sample.java#twice | Sample.java opens the region 'twice' twice",
                "Sample.java#empty | Sample.java#empty is empty",
                "Missing.java#x | no file Missing.java in the repository",
                "../links/README.md | no file ../links/README.md in the repository"
            })
    void whatIsWrongIsNamed(String reference, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> lines(reference)).withMessage(message);
    }
}
