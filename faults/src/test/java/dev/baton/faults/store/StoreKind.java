package dev.baton.faults.store;

import dev.baton.faults.history.FaultKind;
import dev.baton.jpa.JpaDatabase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A store the suite runs (an entry of {@code faults.stores}): which Baton store the workers configure, the
 * database that holds the application's own tables (and, for the JPA store, the locks), how the workers
 * protect their data, and the faults that matter for it.
 */
public enum StoreKind {
    /** The JPA store, table mode, on PostgreSQL. */
    POSTGRESQL("postgresql", JpaDatabase.POSTGRESQL, Backend.JPA_TABLE),
    /** The JPA store, table mode, on MariaDB. */
    MARIADB("mariadb", JpaDatabase.MARIADB, Backend.JPA_TABLE),
    /** The JPA store, advisory mode ({@code pg_try_advisory_lock}), on PostgreSQL. */
    POSTGRESQL_ADVISORY("postgresql-advisory", JpaDatabase.POSTGRESQL, Backend.JPA_ADVISORY),
    /** The JPA store, advisory mode ({@code GET_LOCK}), on MariaDB. */
    MARIADB_ADVISORY("mariadb-advisory", JpaDatabase.MARIADB, Backend.JPA_ADVISORY),
    /** The Redis store on a private Redis 6.2 without persistence; the application's tables on PostgreSQL. */
    REDIS("redis", JpaDatabase.POSTGRESQL, Backend.REDIS),
    /**
     * The ZooKeeper store on a private ZooKeeper 3.9 server in a JVM of its own; the application's tables on
     * PostgreSQL.
     */
    ZOOKEEPER("zookeeper", JpaDatabase.POSTGRESQL, Backend.ZOOKEEPER),
    /** The etcd store on a private etcd server (one member, its own process); the application's tables on PostgreSQL. */
    ETCD("etcd", JpaDatabase.POSTGRESQL, Backend.ETCD),
    /**
     * The ZooKeeper store on a private ensemble of three servers (each in its JVM), every worker connected to all
     * three, each through a proxy of its own; one member at a time is killed and started again.
     */
    ZOOKEEPER_ENSEMBLE("zookeeper-ensemble", JpaDatabase.POSTGRESQL, Backend.ZOOKEEPER),
    /** The etcd store on a private cluster of three members, as {@link #ZOOKEEPER_ENSEMBLE}. */
    ETCD_CLUSTER("etcd-cluster", JpaDatabase.POSTGRESQL, Backend.ETCD),
    /** The file store on a directory on disk (under {@code target/}); the application's tables on PostgreSQL. */
    FILE("file", JpaDatabase.POSTGRESQL, Backend.FILE),
    /** The file store on a directory on tmpfs ({@code /dev/shm}); the application's tables on PostgreSQL. */
    FILE_TMPFS("file-tmpfs", JpaDatabase.POSTGRESQL, Backend.FILE);

    /** Where the locks are. */
    public enum Backend {
        /** {@code baton.store=jpa}, {@code baton.jpa.mode=table}. */
        JPA_TABLE,
        /** {@code baton.store=jpa}, {@code baton.jpa.mode=advisory}. */
        JPA_ADVISORY,
        /** {@code baton.store=redis}. */
        REDIS,
        /** {@code baton.store=file}. */
        FILE,
        /** {@code baton.store=zookeeper}. */
        ZOOKEEPER,
        /** {@code baton.store=etcd}. */
        ETCD
    }

    /**
     * The file store's {@code reader} fault: {@code all} (the default) reads every file of the directory inside
     * a worker's JVM, the companion {@code .live} files too, as a backup agent would; {@code lock-files} only
     * the lock files, as a diagnostic page or log shipper would; {@code off} leaves the fault out.
     */
    public static final String FILE_READER_PROPERTY = "faults.file.reader";

    /** @return what the {@code reader} fault reads: {@code lock-files}, {@code all} or {@code off} */
    public static String fileReader() {
        String reader = System.getProperty(FILE_READER_PROPERTY, "");
        return switch (reader) {
            case "", "all", "true" -> "all";
            case "lock-files", "off" -> reader;
            case "false" -> "off";
            default ->
                throw new IllegalArgumentException(
                        FILE_READER_PROPERTY + "=" + reader + ": expected lock-files, all or off");
        };
    }

    /**
     * A configuration of the PostgreSQL advisory runs that targets a known hole: half the workers name the lock
     * table in upper case ({@code BATON_LOCKS}, the same table to PostgreSQL); on with
     * {@code -Dfaults.advisory.table-case=true}.
     */
    public static final String ADVISORY_CASE_PROPERTY = "faults.advisory.table-case";

    private final String label;
    private final JpaDatabase database;
    private final Backend backend;

    StoreKind(String label, JpaDatabase database, Backend backend) {
        this.label = label;
        this.database = database;
        this.backend = backend;
    }

    /** @return the name in {@code faults.stores} and in reports */
    public String label() {
        return label;
    }

    /** @return the database of the application's tables (for the JPA store, of the locks too) */
    public JpaDatabase database() {
        return database;
    }

    /** @return where the locks are */
    public Backend backend() {
        return backend;
    }

    /** @return whether the store's server is a cluster of three members (a ZooKeeper ensemble, an etcd cluster) */
    public boolean cluster() {
        return this == ZOOKEEPER_ENSEMBLE || this == ETCD_CLUSTER;
    }

    /** @return whether the locks live in {@link #database()} (the JPA store) */
    public boolean locksInDatabase() {
        return backend == Backend.JPA_TABLE || backend == Backend.JPA_ADVISORY;
    }

    /**
     * @return whether the workers' protected write goes through the store's {@code FencedWrites} (a condition
     *     on the lock row); otherwise it is guarded by a token column of the application's own row
     *     ({@code ... WHERE last_token < ?token}), the pattern for stores without {@code FencedWrites}
     */
    public boolean fencedWrites() {
        return backend == Backend.JPA_TABLE;
    }

    /** @return the report's title */
    public String title() {
        String db = database == JpaDatabase.POSTGRESQL ? "PostgreSQL" : "MariaDB";
        return switch (backend) {
            case JPA_TABLE -> db;
            case JPA_ADVISORY -> db + " advisory";
            case REDIS -> "Redis";
            case ZOOKEEPER -> cluster() ? "ZooKeeper (ensemble of 3)" : "ZooKeeper";
            case ETCD -> cluster() ? "etcd (cluster of 3)" : "etcd";
            case FILE -> this == FILE_TMPFS ? "file (tmpfs)" : "file (disk)";
        };
    }

    /**
     * How often each fault is drawn, relative to the others: the faults that matter for this store. Faults
     * that target a hole known to be open are left out unless their property is on.
     *
     * @return the deck
     */
    public List<FaultKind> deck() {
        List<FaultKind> deck = new ArrayList<>();
        switch (backend) {
            case JPA_TABLE -> {
                add(deck, 2, FaultKind.KILL9, FaultKind.TERM, FaultKind.STOP, FaultKind.PARTITION);
                add(deck, 1, FaultKind.SLOW, FaultKind.DB_RESTART, FaultKind.DB_OUTAGE);
            }
            case JPA_ADVISORY -> {
                add(deck, 2, FaultKind.KILL9, FaultKind.STOP, FaultKind.SESSION_KILL, FaultKind.PARTITION);
                add(deck, 1, FaultKind.TERM, FaultKind.DB_RESTART);
            }
            case REDIS -> {
                add(deck, 2, FaultKind.KILL9, FaultKind.STOP, FaultKind.PARTITION);
                add(deck, 1, FaultKind.TERM, FaultKind.SUBSCRIPTION_CUT, FaultKind.DB_RESTART, FaultKind.STORE_STOP);
            }
            case ZOOKEEPER, ETCD -> {
                // a holder killed, paused or cut off loses its session (lease); the server restarted keeps them,
                // paused past their timeout it expires them all
                add(deck, 2, FaultKind.KILL9, FaultKind.STOP, FaultKind.PARTITION);
                add(deck, 1, FaultKind.TERM, FaultKind.DB_RESTART, FaultKind.STORE_STOP);
                if (cluster()) {
                    add(deck, 3, FaultKind.MEMBER_KILL);
                }
            }
            case FILE -> {
                add(deck, 2, FaultKind.KILL9, FaultKind.TERM, FaultKind.STOP);
                if (!"off".equals(fileReader())) {
                    add(deck, 2, FaultKind.READER);
                }
            }
        }
        return deck;
    }

    private static void add(List<FaultKind> deck, int times, FaultKind... kinds) {
        for (FaultKind kind : kinds) {
            for (int i = 0; i < times; i++) {
                deck.add(kind);
            }
        }
    }

    /**
     * @param label a name in {@code faults.stores}
     * @return the store
     */
    public static StoreKind of(String label) {
        String l = label.strip().toLowerCase(Locale.ROOT);
        for (StoreKind kind : values()) {
            if (kind.label.equals(l)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("faults.stores: unknown store '" + label + "'; known: "
                + Arrays.stream(values()).map(StoreKind::label).toList());
    }
}
