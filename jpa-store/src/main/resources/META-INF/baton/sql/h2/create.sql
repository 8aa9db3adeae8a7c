-- Baton JPA lock store: schema for H2 2.x (embedded or server).
-- Usable as-is from Flyway/Liquibase; with other names, replace baton_locks (also in baton_locks_shared)
-- and baton_fencing_seq.
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

-- The key's shared leases (SHARED_LOCKS: permits, read locks), one row each, deleted when released. While
-- they hold the key, its row in baton_locks has owner '' (no owner token is empty), the key's last token and
-- the greatest of their expiries: every acquisition of the key, shared or not, serializes on that row.
CREATE TABLE IF NOT EXISTS baton_locks_shared (
    lock_key   VARCHAR(500) NOT NULL,
    owner      VARCHAR(64)  NOT NULL,
    token      BIGINT       NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    PRIMARY KEY (lock_key, owner)
);
