package dev.baton.examples.orders.demo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * The example WAR pointed at a PostgreSQL database, as its {@code WEB-INF/web.xml} tells a user to: both
 * data sources name the PostgreSQL data source class and URL, and the driver goes into
 * {@code WEB-INF/lib} (instead of H2's). Nothing else of the application changes.
 */
final class PostgresOrdersWar {

    private static final String WEB_XML = "WEB-INF/web.xml";
    private static final Pattern USER = Pattern.compile("[?&]user=([^&]+)");

    private PostgresOrdersWar() {}

    /**
     * @param war the example WAR as built (H2)
     * @param driver the PostgreSQL JDBC driver jar
     * @param jdbcUrl where both data sources point, e.g. {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}
     * @param target the WAR to write
     * @return {@code target}
     */
    static Path write(Path war, Path driver, String jdbcUrl, Path target) throws IOException {
        return write(war, driver, jdbcUrl, target, false);
    }

    /**
     * As {@link #write(Path, Path, String, Path)}, optionally with the URL's {@code user} also as the data
     * sources' {@code <user>} element: WildFly takes it only from there; Payara, given a user, insists on a
     * password too, and takes the user from the URL.
     */
    static Path write(Path war, Path driver, String jdbcUrl, Path target, boolean userElement) throws IOException {
        boolean rewritten = false;
        Files.createDirectories(target.getParent());
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(war));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (entry.getName().startsWith("WEB-INF/lib/h2-")) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(entry.getName()));
                if (entry.getName().equals(WEB_XML)) {
                    out.write(
                            pointAtPostgres(new String(in.readAllBytes(), StandardCharsets.UTF_8), jdbcUrl, userElement)
                                    .getBytes(StandardCharsets.UTF_8));
                    rewritten = true;
                } else {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
            out.putNextEntry(new ZipEntry("WEB-INF/lib/" + driver.getFileName()));
            try (InputStream jar = Files.newInputStream(driver)) {
                jar.transferTo(out);
            }
            out.closeEntry();
        }
        if (!rewritten) {
            throw new IllegalStateException(war + " has no " + WEB_XML + " to point at PostgreSQL");
        }
        return target;
    }

    private static String pointAtPostgres(String webXml, String jdbcUrl, boolean userElement) {
        String xmlUrl = jdbcUrl.replace("&", "&amp;");
        String result = webXml.replace(
                        "<class-name>org.h2.jdbcx.JdbcDataSource</class-name>",
                        "<class-name>org.postgresql.ds.PGSimpleDataSource</class-name>")
                .replaceAll("jdbc:h2:[^<]*", Matcher.quoteReplacement(xmlUrl));
        Matcher user = USER.matcher(jdbcUrl);
        if (userElement && user.find()) {
            result = result.replace("</url>", "</url>\n    <user>" + user.group(1) + "</user>");
        }
        if (result.contains("jdbc:h2:") || result.contains("org.h2.") || !result.contains("PGSimpleDataSource")) {
            throw new IllegalStateException(
                    "web.xml of the example no longer has the expected H2 data sources:\n" + webXml);
        }
        return result;
    }
}
