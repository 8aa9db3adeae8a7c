package dev.baton.jpa;

import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.jpa.internal.jta.JtaExtension;
import dev.baton.jpa.testing.JtaDataSource;
import dev.baton.jpa.testing.StoreConfig;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.jpa.testing.TestJndi;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one-line setup end to end in Weld SE: {@code baton.store=jpa} and {@code baton.jpa.data-source} naming a
 * (non-JTA) data source bound in JNDI, with no persistence unit and no {@code EntityManagerFactory} bean; the
 * runtime's {@link Locks} on top. Jakarta Transactions is on the class path but no transaction manager is, as
 * on a runtime without JTA: the suspending bean is there and simply runs the work.
 */
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, JtaExtension.class})
class DataSourceCdiTest {

    static final String TABLE = "bt_dscdi_" + TestDatabases.runSuffix();
    static JtaDataSource dataSource;

    @Inject
    Locks locks;

    @BeforeAll
    static void configure() {
        dataSource = new JtaDataSource(TestDatabases.url(JpaDatabase.H2), null);
        TestJndi.install();
        TestJndi.bind("jdbc/locks", dataSource);
        StoreConfig.register(TABLE, Map.of("baton.jpa.data-source", "jdbc/locks"));
    }

    @AfterAll
    static void unconfigure() {
        StoreConfig.release();
        TestJndi.uninstall();
        dataSource.close();
    }

    @Test
    void locksComeFromTheDataSourcesTable() throws SQLException {
        CdiWiringTest.locksComeFrom(locks, TABLE);
    }
}
