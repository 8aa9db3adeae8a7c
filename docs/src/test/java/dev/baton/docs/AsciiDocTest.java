package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ids read from AsciiDoc sources are the ids Asciidoctor renders. */
class AsciiDocTest {

    @Test
    void anchorsOfIncludedFilesExplicitAnchorsAndGeneratedSectionIds() {
        assertThat(AsciiDoc.anchors(Fixtures.links().resolve("spec/src/main/asciidoc/spec.adoc")))
                .containsExactly("about-this-document", "the-store-spi", "store-acquire", "spec-store-acquire");
    }

    @Test
    void sectionIdsAsAsciidoctorGeneratesThem() {
        Map<String, String> book = Map.of("idprefix", "", "idseparator", "-");
        assertThat(AsciiDoc.sectionId("Timeouts and 409 Conflict", book)).isEqualTo("timeouts-and-409-conflict");
        assertThat(AsciiDoc.sectionId("`@Synchronized`", book)).isEqualTo("synchronized");
        assertThat(AsciiDoc.sectionId("Connections, errors and close", book)).isEqualTo("connections-errors-and-close");
        assertThat(AsciiDoc.sectionId("Leases -- and clocks.", book)).isEqualTo("leases-and-clocks");
        assertThat(AsciiDoc.sectionId("Key words", Map.of())).isEqualTo("_key_words");
    }

    /** Every id predicted from the specification's sources is in the rendered specification. */
    @Test
    void everyIdOfTheSpecificationSourcesIsInItsRenderedHtml() {
        Path root = Documents.root();
        Path html = Documents.renderedSpecification();
        Set<String> predicted = AsciiDoc.anchors(root.resolve("spec/src/main/asciidoc/baton-spec.adoc"));
        assertThat(predicted).hasSizeGreaterThan(50);
        assertThat(Markdown.ids(Markdown.read(html))).containsAll(predicted);
    }
}
