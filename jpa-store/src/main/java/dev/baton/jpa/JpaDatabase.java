package dev.baton.jpa;

/** The databases the JPA store speaks, each with its own atomic statements. */
public enum JpaDatabase {

    /** PostgreSQL 9.5 or later: {@code INSERT ... ON CONFLICT ... DO UPDATE ... WHERE expired RETURNING}. */
    POSTGRESQL("postgresql"),

    /** MariaDB 10.5 or later: {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}. */
    MARIADB("mariadb"),

    /** H2 2.x: {@code MERGE INTO ... USING} read back through {@code FINAL TABLE}. */
    H2("h2");

    private final String folder;

    JpaDatabase(String folder) {
        this.folder = folder;
    }

    /**
     * Where this database's DDL lives in the jar: {@code META-INF/baton/sql/<folder>/create.sql}.
     *
     * @return the folder name
     */
    public String folder() {
        return folder;
    }
}
