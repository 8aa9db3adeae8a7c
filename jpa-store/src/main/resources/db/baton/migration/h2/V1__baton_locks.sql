-- Baton JPA lock store: schema for H2 2.x (embedded or server).
-- Flyway migration (and the Liquibase changelog db/changelog/baton/baton-changelog.xml runs this file too).
-- Placeholders: baton_table (default baton_locks) and baton_sequence (default baton_fencing_seq), the
-- store's baton.jpa.table and baton.jpa.sequence. The same DDL as META-INF/baton/sql/h2/create.sql, which
-- schema-action=create runs; MigrationTest keeps the two equal.
CREATE SEQUENCE IF NOT EXISTS ${baton_sequence} START WITH 1 INCREMENT BY 1 NO CYCLE;

-- One row per key ever locked; a released lock keeps its row with an expiry in the past.
-- H2 compares VARCHAR exactly (case-sensitive, no padding).
CREATE TABLE IF NOT EXISTS ${baton_table} (
    lock_key   VARCHAR(500) NOT NULL PRIMARY KEY,
    owner      VARCHAR(64)  NOT NULL,
    token      BIGINT       NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    -- the key's next turn (WAITING_TURNS): the waiter that takes it next, since when it waits, until when
    turn_waiter VARCHAR(64),
    turn_since  TIMESTAMP(6) WITH TIME ZONE,
    turn_until  TIMESTAMP(6) WITH TIME ZONE
);
