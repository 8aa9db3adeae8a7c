package dev.baton.jpa.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * HikariCP data sources for persistence units on a {@code DataSource}, one per factory as each application
 * instance has its own pool. A pool keeps no idle connection, so the pools of closed factories hold none
 * once their idle timeout passed; the JVM's end closes them.
 */
public final class Pools {

    private static final AtomicInteger COUNT = new AtomicInteger();

    private Pools() {}

    /**
     * @param url the JDBC URL
     * @param driver the driver's class name
     * @return a new pool, lending connections in auto-commit mode
     */
    public static DataSource of(String url, String driver) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setDriverClassName(driver);
        config.setPoolName("baton-test-" + COUNT.incrementAndGet());
        config.setMaximumPoolSize(40); // as the provider pools of the tests' persistence units
        config.setMinimumIdle(0);
        config.setIdleTimeout(10_000);
        HikariDataSource pool = new HikariDataSource(config);
        Runtime.getRuntime().addShutdownHook(new Thread(pool::close));
        return pool;
    }
}
