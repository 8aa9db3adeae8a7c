package dev.baton.jpa.testing;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * What the default run of the module leaves to profile {@code jpa-full} ({@code -Dbaton.jpa.full=true}): suites
 * that a cell repeats although nothing of that cell reaches what they test. The store's statements are its own
 * JDBC on whatever connection it is lent, so:
 *
 * <ul>
 *   <li>the TCK's contract runs in full on each database under Hibernate ORM; under EclipseLink the cell's own
 *       suites (basics, two instances, the caller's transaction, fencing, bounded calls, turns, schema) still run,
 *       which is where the provider lends or wraps the connection, on PostgreSQL and H2 (the MariaDB cell under
 *       EclipseLink repeats them on the same provider code);
 *   <li>the TCK's store properties (random sequences of calls checked against a model of the contract) run beside
 *       the contract under Hibernate ORM on PostgreSQL, in table and advisory mode, and on H2; under EclipseLink (as
 *       the contract) and on MariaDB they are left to this profile, to keep the default run short;
 *   <li>on a data source the cells under EclipseLink repeat neither the fencing, bounded-call nor shared-lease
 *       suites of the cells under Hibernate ORM on the same data source: the data source, not the provider, lends
 *       those connections;
 *   <li>the contract on a data source runs on PostgreSQL in table mode (MariaDB, advisory mode and H2 keep their
 *       own cells' suites, and the contract runs on each database under Hibernate ORM);
 *   <li>on migrated schemas, each database runs the whole contract once, each with one tool (PostgreSQL with
 *       Flyway, MariaDB with Liquibase); the other two pairs still migrate and have their catalog compared column by
 *       column with the created one, which is what tells them apart.
 * </ul>
 *
 * <p>The run against other versions of the database servers ({@code -Dbaton.jpa.other-servers=true}, the CI's second
 * step on the machine's PostgreSQL and MariaDB) leaves out, besides, the contract on migrated schemas (the migrations
 * and their schema checks still run there, and the cells under Hibernate ORM run the whole contract on those servers)
 * and what does not depend on the server's version: the outage suite (the driver's answer to a cut connection),
 * the round trips and renewal batches counted per call, pgjdbc's notification read.
 *
 * <p>Registered through {@code META-INF/services}, it removes tests before they run: the default run reports them
 * neither as run nor as skipped.
 */
public final class DefaultRunFilter implements PostDiscoveryFilter {

    /**
     * Tests left out: under a top-level class, the nested classes named, level by level (a class, or a test
     * template, that matches goes with everything in it); no level named: the whole class.
     */
    private record Rule(Pattern topClass, List<Set<String>> nested) {
        boolean matches(UniqueId id) {
            int depth = -1;
            for (UniqueId.Segment segment : id.getSegments()) {
                if (depth < 0 && segment.getType().equals("class")) {
                    if (!topClass.matcher(segment.getValue()).matches()) {
                        return false;
                    }
                    if (nested.isEmpty()) {
                        return true; // the whole class
                    }
                    depth = 0;
                } else if (depth >= 0 && segment.getType().equals("nested-class")) {
                    if (!nested.get(depth).contains(segment.getValue())) {
                        return false;
                    }
                    if (++depth == nested.size()) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    private static final List<Rule> LEFT_OUT = List.of(
            new Rule(
                    Pattern.compile("dev\\.baton\\.jpa\\.\\w+EclipselinkTest"),
                    List.of(Set.of("Contract", "Properties"))),
            new Rule(
                    Pattern.compile("dev\\.baton\\.jpa\\.Mariadb(Advisory)?HibernateTest"),
                    List.of(Set.of("Properties"))),
            new Rule(Pattern.compile("dev\\.baton\\.jpa\\.MariadbEclipselinkTest"), List.of()),
            new Rule(
                    Pattern.compile("dev\\.baton\\.jpa\\.\\w+EclipselinkDataSourceTest"),
                    List.of(Set.of("Fencing", "BoundedCalls", "Shared"))),
            new Rule(
                    Pattern.compile("dev\\.baton\\.jpa\\.DataSourceContractTest"),
                    List.of(Set.of("PostgresAdvisory", "MariaDb", "MariaDbAdvisory", "H2"))),
            new Rule(
                    Pattern.compile("dev\\.baton\\.jpa\\.MigrationTest"),
                    List.of(Set.of("PostgresqlLiquibase", "MariadbFlyway"))));

    /**
     * Left out, besides, in the run against other server versions: every migrated schema's contract (the cells
     * under Hibernate ORM run it on those servers), and what tests the driver or Baton's own code rather than the
     * server: connections cut by a proxy (the driver's answer to a dead socket), the round trips counted per call
     * and the renewal batches (the store's statements, which the default run counts), pgjdbc's notification read.
     */
    private static final List<Rule> OTHER_SERVERS_LEFT_OUT = List.of(
            new Rule(
                    Pattern.compile("dev\\.baton\\.jpa\\.MigrationTest"),
                    List.of(Set.of("PostgresqlFlyway", "PostgresqlLiquibase", "MariadbFlyway", "MariadbLiquibase"))),
            new Rule(Pattern.compile("dev\\.baton\\.jpa\\.\\w+Test"), List.of(Set.of("Outage"))),
            new Rule(Pattern.compile("dev\\.baton\\.jpa\\.RoundTripTest"), List.of()),
            new Rule(Pattern.compile("dev\\.baton\\.jpa\\.RenewalBatchTest"), List.of()),
            new Rule(Pattern.compile("dev\\.baton\\.jpa\\.internal\\.NotificationReadTest"), List.of()));

    private final boolean full = Boolean.getBoolean("baton.jpa.full");
    private final boolean otherServers = Boolean.getBoolean("baton.jpa.other-servers");

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (full) {
            return FilterResult.included("the whole run");
        }
        UniqueId id = descriptor.getUniqueId();
        if (otherServers) {
            for (Rule rule : OTHER_SERVERS_LEFT_OUT) {
                if (rule.matches(id)) {
                    return FilterResult.excluded(
                            "the default run tests it; nothing of it depends on the server's version");
                }
            }
        }
        for (Rule rule : LEFT_OUT) {
            if (rule.matches(id)) {
                return FilterResult.excluded("left to profile jpa-full");
            }
        }
        return FilterResult.included("in the default run");
    }
}
