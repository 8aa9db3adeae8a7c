-- Baton JPA lock store: schema for H2 2.x (embedded or server).
-- Usable as-is from Flyway/Liquibase; with other names, replace baton_locks / baton_fencing_seq.
CREATE SEQUENCE IF NOT EXISTS baton_fencing_seq START WITH 1 INCREMENT BY 1 NO CYCLE;

-- One row per key ever locked; a released lock keeps its row with an expiry in the past.
-- H2 compares VARCHAR exactly (case-sensitive, no padding).
CREATE TABLE IF NOT EXISTS baton_locks (
    lock_key   VARCHAR(500) NOT NULL PRIMARY KEY,
    owner      VARCHAR(64)  NOT NULL,
    token      BIGINT       NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    -- the key's next turn (WAITING_TURNS): the waiter that takes it next, since when it waits, until when
    turn_waiter VARCHAR(64),
    turn_since  TIMESTAMP(6) WITH TIME ZONE,
    turn_until  TIMESTAMP(6) WITH TIME ZONE
);
