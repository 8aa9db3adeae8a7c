-- Baton JPA lock store: schema for PostgreSQL 9.5+ (tested on 15 and 17).
-- Flyway migration (and the Liquibase changelog db/changelog/baton/baton-changelog.xml runs this file too).
-- Placeholders: baton_table (default baton_locks) and baton_sequence (default baton_fencing_seq), the
-- store's baton.jpa.table and baton.jpa.sequence. The same DDL as META-INF/baton/sql/postgresql/create.sql, which
-- schema-action=create runs; MigrationTest keeps the two equal.
-- The sequence MUST keep CACHE 1 (the default): with a per-session cache, two sessions hand out
-- values out of order and fencing tokens would no longer grow for a key.
CREATE SEQUENCE IF NOT EXISTS ${baton_sequence} AS BIGINT START WITH 1 INCREMENT BY 1 CACHE 1 NO CYCLE;

-- One row per key ever locked; a released lock keeps its row with an expiry in the past.
-- COLLATE "C" compares bytes: 'k' <> 'K', 'a' <> 'a ' (text has no pad), NFC <> NFD.
CREATE TABLE IF NOT EXISTS ${baton_table} (
    lock_key   VARCHAR(500) COLLATE "C" NOT NULL PRIMARY KEY,
    owner      VARCHAR(64)  COLLATE "C" NOT NULL,
    token      BIGINT                   NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    -- the key's next turn (WAITING_TURNS): the waiter that takes it next, since when it waits, until when
    turn_waiter VARCHAR(64) COLLATE "C",
    turn_since  TIMESTAMP(6) WITH TIME ZONE,
    turn_until  TIMESTAMP(6) WITH TIME ZONE
);
