package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The server vendor's project ({@code examples/server-vendor}, no parent pom, shown whole in {@code
 * docs/server-vendors.md}, where {@link SnippetsTest} keeps the copy in step) pins what Baton itself is built and
 * tested with: Baton's version, JUnit, Arquillian, the Maven plugins and the Java release.
 */
class ServerVendorPomTest {

    /** What the vendor's pom pins (the first {@code <version>} after an artifact), and the root pom's property. */
    private static final String[][] PINNED = {
        {"junit-bom", "version.junit"},
        {"arquillian-bom", "version.arquillian"},
        {"maven-surefire-plugin", "version.surefire"},
        {"maven-failsafe-plugin", "version.surefire"},
        {"maven-compiler-plugin", "version.compiler-plugin"},
        {"maven-dependency-plugin", "version.dependency-plugin"},
        {"jakarta.enterprise.cdi-api", "version.cdi-api"},
        {"jakarta.ws.rs-api", "version.ws-rs-api"},
        {"jakarta.ejb-api", "version.ejb-api"},
        {"jakarta.persistence-api", "version.persistence-api"},
        {"jakarta.transaction-api", "version.transaction-api"},
        {"microprofile-config-api", "version.mp-config-api"}
    };

    @Test
    void theVendorsPomPinsWhatBatonIsBuiltWith() throws IOException {
        String pom = read("examples/server-vendor/pom.xml");
        String root = read("pom.xml");

        assertThat(element(pom, "baton.version")).as("baton.version").isEqualTo(element(root, "version"));
        assertThat(element(pom, "maven.compiler.release"))
                .as("release")
                .isEqualTo(element(root, "maven.compiler.release"));
        for (String[] pinned : PINNED) {
            int at = pom.indexOf("<artifactId>" + pinned[0] + "</artifactId>");
            assertThat(at).as("%s declared", pinned[0]).isNotNegative();
            assertThat(element(pom.substring(at), "version")).as(pinned[0]).isEqualTo(element(root, pinned[1]));
        }
    }

    private static String read(String file) throws IOException {
        return Files.readString(Documents.root().resolve(Path.of(file))).replace("\r\n", "\n");
    }

    /** The text of the first {@code <name>} element. */
    private static String element(String xml, String name) {
        Matcher element = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">")
                .matcher(xml);
        assertThat(element.find()).as("<%s> present", name).isTrue();
        return element.group(1).trim();
    }
}
