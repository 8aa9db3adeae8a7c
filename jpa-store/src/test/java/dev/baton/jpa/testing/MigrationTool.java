package dev.baton.jpa.testing;

import dev.baton.jpa.internal.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.LiquibaseException;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * Flyway and Liquibase, each set up exactly as jpa-store/README.md ("Migrations") tells users to, on
 * the scripts and changelog the jar ships.
 */
public enum MigrationTool {
    FLYWAY {
        @Override
        public int migrate(FreshDatabase database, String table, String sequence, int version) {
            FluentConfiguration flyway = flyway(database, table, sequence);
            if (version != LATEST) {
                flyway.target(String.valueOf(version));
            }
            return flyway.load().migrate().migrationsExecuted;
        }
    },

    LIQUIBASE {
        @Override
        public int migrate(FreshDatabase database, String table, String sequence, int version) {
            Connection c = database.connect();
            try {
                Database db = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
                try (Liquibase liquibase = new Liquibase(LIQUIBASE_CHANGELOG, new ClassLoaderResourceAccessor(), db)) {
                    // the store's default names come from the changelog's own defaults: that they are right is tested
                    // too
                    if (!table.equals(Dialect.DEFAULT_TABLE)) {
                        liquibase.setChangeLogParameter("baton_table", table);
                    }
                    if (!sequence.equals(Dialect.DEFAULT_SEQUENCE)) {
                        liquibase.setChangeLogParameter("baton_sequence", sequence);
                    }
                    int pending = liquibase
                            .listUnrunChangeSets(new Contexts(), new LabelExpression())
                            .size();
                    if (version != LATEST) {
                        // one changeset per version of the database's own, in order: the first ones
                        int run = Math.max(0, Math.min(pending, version - ranBefore(c)));
                        liquibase.update(run, new Contexts(), new LabelExpression());
                        return run;
                    }
                    liquibase.update(new Contexts(), new LabelExpression());
                    int left = liquibase
                            .listUnrunChangeSets(new Contexts(), new LabelExpression())
                            .size();
                    if (left != 0) {
                        throw new IllegalStateException(left + " changesets still pending after the update");
                    }
                    return pending;
                }
            } catch (LiquibaseException e) {
                throw new IllegalStateException("Liquibase failed on " + database + ": " + e.getMessage(), e);
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        }
    };

    /** For {@link #migrate(FreshDatabase, String, String, int)}: every version. */
    public static final int LATEST = Integer.MAX_VALUE;

    /** Where the Flyway scripts of a database are: this plus the database's folder. */
    public static final String FLYWAY_LOCATION = "classpath:db/baton/migration/";

    /** The Liquibase changelog. */
    public static final String LIQUIBASE_CHANGELOG = "db/changelog/baton/baton-changelog.xml";

    /** The Flyway history table of the store's migrations, apart from the application's own. */
    public static final String FLYWAY_HISTORY = "baton_schema_history";

    /**
     * Runs the tool's migrations with these names.
     *
     * @param database where
     * @param table the table name (placeholder / changelog parameter {@code baton_table}; Liquibase is
     *     left to the changelog's default when it is the store's default)
     * @param sequence the sequence name ({@code baton_sequence}, likewise)
     * @return how many migrations (Flyway) or changesets (Liquibase) ran: 0 when all had run before
     */
    public int migrate(FreshDatabase database, String table, String sequence) {
        return migrate(database, table, sequence, LATEST);
    }

    /**
     * Runs the tool's migrations up to a version of the store's schema, as an installation of an earlier
     * release of the store has it.
     *
     * @param database where
     * @param table the table name
     * @param sequence the sequence name
     * @param version the last version to run (Flyway's {@code V<n>}, the n-th changeset of the database), or
     *     {@link #LATEST}
     * @return how many migrations or changesets ran
     */
    public abstract int migrate(FreshDatabase database, String table, String sequence, int version);

    /** @return how many changesets ran on this database before (only the store's run there in the tests) */
    private static int ranBefore(Connection c) {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM DATABASECHANGELOG")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException none) {
            return 0; // Liquibase has not run here yet
        }
    }

    /**
     * Flyway as the README configures it: the database's location, the names as placeholders, a history
     * table of its own (so the application's own migrations keep their versions), and a baseline below
     * V1 for a schema that already has tables (so V1 still runs).
     *
     * @param database where
     * @param table the table name
     * @param sequence the sequence name
     * @return the configuration, to load or change
     */
    public static FluentConfiguration flyway(FreshDatabase database, String table, String sequence) {
        return Flyway.configure()
                .dataSource(database.dataSource())
                .locations(FLYWAY_LOCATION + database.database().folder())
                .placeholders(Map.of("baton_table", table, "baton_sequence", sequence))
                .table(FLYWAY_HISTORY)
                .baselineOnMigrate(true)
                .baselineVersion("0");
    }
}
