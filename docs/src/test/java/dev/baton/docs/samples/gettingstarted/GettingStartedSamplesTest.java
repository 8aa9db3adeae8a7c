package dev.baton.docs.samples.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.annotation.sql.DataSourceDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The getting-started guides' samples agree with the example they describe: the data source they define is
 * the one the example's {@code baton.jpa.data-source} names, with PostgreSQL's data source class, and the pom's
 * artifacts and versions are the build's.
 */
class GettingStartedSamplesTest {

    private static final Path ROOT = root();
    private static final Path SAMPLES = ROOT.resolve("docs/src/test/resources/dev/baton/docs/samples/gettingstarted");

    @Test
    void theDataSourcesAreTheOneTheExampleNamesOnPostgres() throws IOException {
        Properties config = new Properties();
        try (var in = Files.newInputStream(
                ROOT.resolve("examples/orders/src/main/resources/META-INF/microprofile-config.properties"))) {
            config.load(in);
        }
        String name = config.getProperty("baton.jpa.data-source");
        assertThat(name).isEqualTo("java:app/jdbc/orders");
        assertThat(Files.readString(ROOT.resolve("examples/orders/src/main/webapp/WEB-INF/web.xml")))
                .contains("<name>" + name + "</name>");
        for (String sample : new String[] {"web-payara.xml", "web-wildfly.xml"}) {
            assertThat(Files.readString(SAMPLES.resolve(sample)))
                    .as(sample)
                    .contains("<name>" + name + "</name>")
                    .contains("<class-name>org.postgresql.ds.PGSimpleDataSource</class-name>")
                    .contains("<url>jdbc:postgresql://");
        }
        DataSourceDefinition annotation = OrdersDataSource.class.getAnnotation(DataSourceDefinition.class);
        assertThat(annotation.name()).isEqualTo(name);
        assertThat(annotation.className()).isEqualTo("org.postgresql.ds.PGSimpleDataSource");
    }

    @Test
    void thePomUsesTheBuildsArtifactsAndVersions() throws IOException {
        String pom = Files.readString(SAMPLES.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        Matcher baton = Pattern.compile("<groupId>dev.baton</groupId>\\s*<artifactId>([^<]+)</artifactId>")
                .matcher(pom);
        int artifacts = 0;
        while (baton.find()) {
            assertThat(bom).contains("<artifactId>" + baton.group(1) + "</artifactId>");
            artifacts++;
        }
        assertThat(artifacts).isEqualTo(3);
        assertThat(pom)
                .contains("<version>" + property(parent, "<version>", "</version>", "baton-parent") + "</version>")
                .contains(
                        "<version>" + property(parent, "<version.postgresql-jdbc>", "</version.postgresql-jdbc>", null)
                                + "</version>")
                .contains("<parameters>true</parameters>");
    }

    /** The text between {@code open} and {@code close}, after {@code after} when given. */
    private static String property(String text, String open, String close, String after) {
        int from = after == null ? 0 : text.indexOf(after);
        int start = text.indexOf(open, from) + open.length();
        return text.substring(start, text.indexOf(close, start));
    }

    private static Path root() {
        String configured = System.getProperty("baton.docs.root");
        return (configured == null || configured.isBlank() ? Path.of("..") : Path.of(configured))
                .toAbsolutePath()
                .normalize();
    }
}
