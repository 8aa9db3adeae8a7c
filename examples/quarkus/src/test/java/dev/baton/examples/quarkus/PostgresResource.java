package dev.baton.examples.quarkus;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The {@code @QuarkusTest} application's database: a {@link TestDatabase} started before the application and
 * stopped after it, its URL and user given to the Quarkus data source.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private TestDatabase database;

    @Override
    public Map<String, String> start() {
        database = TestDatabase.start("quarkus-test");
        return Map.of(
                "quarkus.datasource.jdbc.url", database.jdbcUrl(),
                "quarkus.datasource.username", database.user());
    }

    @Override
    public void stop() {
        if (database != null) {
            try {
                database.close();
            } catch (Exception e) {
                throw new IllegalStateException("the test database did not stop: " + e, e);
            }
        }
    }
}
