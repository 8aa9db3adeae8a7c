package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.internal.PrivateDatabase;
import dev.baton.jpa.testing.JtaDataSource;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import dev.baton.tck.LogCapture;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code BATON-JPA-020}: a lock database private to this JVM (what {@code java:comp/DefaultDataSource} is in
 * each Payara Micro or WildFly instance) is told at connect, once per database, and a database server is not.
 */
class PrivateDatabaseWarningTest {

    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.start("dev.baton.jpa.JpaLockStore");
    }

    private List<String> warnings() {
        return log.messages(Level.WARNING, "BATON-JPA-020");
    }

    @AfterEach
    void release() {
        log.close();
    }

    @Test
    void anH2DatabaseInMemoryIsToldOnceAtConnect() {
        String url = "jdbc:h2:mem:private-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        connect(url);
        assertThat(warnings())
                .singleElement()
                .asString()
                .contains("H2 in memory", url.substring(0, url.indexOf(';')))
                .contains("exclude only within this JVM", "java:comp/DefaultDataSource")
                .doesNotContain("DB_CLOSE_DELAY");
        connect(url);
        assertThat(warnings()).as("once per database").hasSize(1);
    }

    @Test
    void anH2FileOpenedEmbeddedIsTold() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "private-h2"));
        String url = "jdbc:h2:file:" + dir.toAbsolutePath().resolve("locks-" + UUID.randomUUID());
        connect(url);
        assertThat(warnings()).singleElement().asString().contains("H2 file opened embedded", url);
    }

    @Test
    void anH2ServerAndPostgresqlAreNotTold() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Server server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifNotExists")
                .start();
        try {
            connect("jdbc:h2:tcp://localhost:" + port + "/mem:shared-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        } finally {
            server.stop();
        }
        connect(TestDatabases.url(JpaDatabase.POSTGRESQL));
        assertThat(warnings()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "jdbc:h2:mem:locks|H2 in memory",
                "jdbc:h2:file:/var/lib/locks|an H2 file opened embedded in this JVM",
                "jdbc:h2:~/locks;MODE=PostgreSQL|an H2 file opened embedded in this JVM",
                "jdbc:h2:./locks|an H2 file opened embedded in this JVM",
                "jdbc:h2:file:/srv/locks;AUTO_SERVER=TRUE|",
                "jdbc:h2:tcp://db.example:9092/locks|",
                "jdbc:h2:ssl://db.example/locks|",
                "jdbc:derby:memory:locks;create=true|embedded Derby",
                "jdbc:derby:locks|embedded Derby",
                "jdbc:derby://localhost:1527/locks|",
                "jdbc:hsqldb:mem:locks|HSQLDB embedded in this JVM",
                "jdbc:hsqldb:file:/data/locks|HSQLDB embedded in this JVM",
                "jdbc:hsqldb:hsql://db.example/locks|",
                "jdbc:sqlite:/data/locks.db|SQLite, a file of this machine",
                "jdbc:postgresql://db.example/locks|",
                "jdbc:mariadb://db.example/locks|",
            })
    void theUrlTellsWhetherTheDatabaseIsPrivate(String url, String expected) {
        assertThat(PrivateDatabase.describe(url)).isEqualTo(expected);
    }

    private static void connect(String url) {
        String table = "bt_private_" + TestDatabases.runSuffix();
        TestDatabases.created(JpaDatabase.POSTGRESQL, table);
        JtaDataSource pool = new JtaDataSource(url, null);
        try (JpaLockStore store = JpaLockStore.builder(pool)
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.CREATE)
                .build()) {
            String owner = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of("private:" + UUID.randomUUID(), owner, 1_000))
                            .isAcquired())
                    .isTrue();
        } finally {
            pool.close();
        }
    }
}
