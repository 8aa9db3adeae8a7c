-- Baton JPA lock store: schema for PostgreSQL 9.5+, version 2: the table of shared leases.
-- Flyway migration (and the Liquibase changelog db/changelog/baton/baton-changelog.xml runs this file too).
-- Placeholder: baton_table (default baton_locks), the store's baton.jpa.table; the table is named after it.
-- V1 and V2 together are the DDL of META-INF/baton/sql/postgresql/create.sql, which schema-action=create runs;
-- MigrationTest keeps them equal. Only creates a table: instances of earlier versions keep running beside it.
-- The key's shared leases (SHARED_LOCKS: permits, read locks), one row each, deleted when released. While
-- they hold the key, its row in ${baton_table} has owner '' (no owner token is empty), the key's last token and
-- the greatest of their expiries: every acquisition of the key, shared or not, serializes on that row.
CREATE TABLE IF NOT EXISTS ${baton_table}_shared (
    lock_key   VARCHAR(500) COLLATE "C" NOT NULL,
    owner      VARCHAR(64)  COLLATE "C" NOT NULL,
    token      BIGINT                   NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    PRIMARY KEY (lock_key, owner)
);
