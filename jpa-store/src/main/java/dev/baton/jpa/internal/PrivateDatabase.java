package dev.baton.jpa.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A lock database that lives inside this JVM (H2 in memory or on a file opened embedded, Derby embedded,
 * HSQLDB in memory or on a file, SQLite), told from the connection's URL: its locks exclude only the callers
 * of this JVM. It is what the default data source ({@code java:comp/DefaultDataSource}) of Payara Micro and
 * WildFly is, in each instance. {@link #warnIfPrivate} logs {@code BATON-JPA-020} once per database per JVM,
 * as the runtime's {@code BATON-020} does for the memory store.
 */
public final class PrivateDatabase {

    private static final System.Logger LOG = System.getLogger("dev.baton.jpa.JpaLockStore");
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private PrivateDatabase() {}

    /**
     * @param url a JDBC URL
     * @return what makes the database private to the JVM that opened it (e.g. {@code "H2 in memory"}), or
     *     null for a database server (or one the URL does not tell)
     */
    public static String describe(String url) {
        String u = url == null ? "" : url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:h2:")) {
            String rest = u.substring("jdbc:h2:".length());
            if (rest.startsWith("mem:")) {
                return "H2 in memory";
            }
            if (rest.startsWith("tcp:") || rest.startsWith("ssl:") || u.contains(";auto_server=true")) {
                return null; // a server, or a file other processes reach through the first one's server
            }
            return "an H2 file opened embedded in this JVM";
        }
        if (u.startsWith("jdbc:derby:") && !u.startsWith("jdbc:derby://")) {
            return "embedded Derby";
        }
        if (u.startsWith("jdbc:hsqldb:")) {
            String rest = u.substring("jdbc:hsqldb:".length());
            return rest.startsWith("mem:") || rest.startsWith("file:") || rest.startsWith("res:")
                    ? "HSQLDB embedded in this JVM"
                    : null;
        }
        if (u.startsWith("jdbc:sqlite:")) {
            return "SQLite, a file of this machine";
        }
        return null;
    }

    /**
     * Logs {@code BATON-JPA-020} if {@code connection}'s database is private to this JVM, once per database.
     *
     * @param connection a connection of the store
     * @param store the store, for the message
     * @throws SQLException if the metadata cannot be read
     */
    public static void warnIfPrivate(Connection connection, String store) throws SQLException {
        String url = connection.getMetaData().getURL();
        String what = describe(url);
        if (what == null) {
            return;
        }
        String database = withoutSettings(url);
        if (WARNED.add(database)) {
            JpaMessage.PRIVATE_DATABASE.log(LOG, store, what, database);
        }
    }

    /** The URL up to its settings, which may carry a password. */
    private static String withoutSettings(String url) {
        int end = url.length();
        for (char c : new char[] {';', '?'}) {
            int i = url.indexOf(c);
            if (i >= 0) {
                end = Math.min(end, i);
            }
        }
        return url.substring(0, end);
    }
}
