package com.example.lockstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * This repository's check that the pom a store author copies from {@code docs/store-authors.md} is the one this
 * module builds with (not part of what a store author writes): the guide's pom block and this module's
 * {@code pom.xml} are the same text, and what it pins is what Baton itself is built and tested with.
 */
class DocumentedPomTest {

    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path REPOSITORY = MODULE.getParent().getParent();

    @Test
    void theReadmesPomIsThisModulesPom() throws IOException {
        List<String> poms = xmlBlocks(read(REPOSITORY.resolve("docs/store-authors.md"))).stream()
                .filter(block -> block.startsWith("<?xml"))
                .toList();

        assertThat(poms).as("complete pom.xml blocks in docs/store-authors.md").hasSize(1);
        assertThat(poms.get(0))
                .as("the pom.xml in docs/store-authors.md, against examples/store-author/pom.xml")
                .isEqualTo(read(MODULE.resolve("pom.xml")).strip());
    }

    @Test
    void theDocumentedVersionsAreTheOnesBatonIsBuiltWith() throws IOException {
        String pom = read(MODULE.resolve("pom.xml"));
        String parent = read(REPOSITORY.resolve("pom.xml"));

        assertThat(element(pom, "baton.version")).as("baton.version").isEqualTo(element(parent, "version"));
        assertThat(pluginVersion(pom, "maven-surefire-plugin"))
                .as("Surefire")
                .isEqualTo(element(parent, "version.surefire"));
        assertThat(pluginVersion(pom, "maven-compiler-plugin"))
                .as("compiler plugin")
                .isEqualTo(element(parent, "version.compiler-plugin"));
        assertThat(element(pom, "maven.compiler.release"))
                .as("release")
                .isEqualTo(element(parent, "maven.compiler.release"));
        assertThat(pom)
                .as("the JUnit BOM")
                .contains("<artifactId>junit-bom</artifactId>\n        <version>" + element(parent, "version.junit")
                        + "</version>");
        assertThat(pom)
                .as("failIfNoTests")
                .contains("<failIfNoTests>true</failIfNoTests>")
                .contains("<baton.tck.timeFactor>${baton.tck.timeFactor}</baton.tck.timeFactor>");
    }

    private static List<String> xmlBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        Matcher block = Pattern.compile("^```xml\\n(.*?)^```$", Pattern.MULTILINE | Pattern.DOTALL)
                .matcher(markdown);
        while (block.find()) {
            blocks.add(block.group(1).strip());
        }
        return blocks;
    }

    /** The text of the first {@code <name>} element. */
    private static String element(String xml, String name) {
        Matcher element = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">")
                .matcher(xml);
        assertThat(element.find()).as("<%s> present", name).isTrue();
        return element.group(1).trim();
    }

    private static String pluginVersion(String pom, String artifactId) {
        int plugin = pom.indexOf("<artifactId>" + artifactId + "</artifactId>");
        assertThat(plugin).as("%s declared", artifactId).isNotNegative();
        return element(pom.substring(plugin), "version");
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file).replace("\r\n", "\n");
    }
}
