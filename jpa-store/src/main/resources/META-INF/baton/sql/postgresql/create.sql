-- Baton JPA lock store: schema for PostgreSQL 9.5+ (tested on 15 and 17).
-- Usable as-is from Flyway/Liquibase; with other names, replace baton_locks (also in baton_locks_shared)
-- and baton_fencing_seq.
-- The sequence MUST keep CACHE 1 (the default): with a per-session cache, two sessions hand out
-- values out of order and fencing tokens would no longer grow for a key.
CREATE SEQUENCE IF NOT EXISTS baton_fencing_seq AS BIGINT START WITH 1 INCREMENT BY 1 CACHE 1 NO CYCLE;

-- One row per key ever locked; a released lock keeps its row with an expiry in the past.
-- COLLATE "C" compares bytes: 'k' <> 'K', 'a' <> 'a ' (text has no pad), NFC <> NFD.
CREATE TABLE IF NOT EXISTS baton_locks (
    lock_key   VARCHAR(500) COLLATE "C" NOT NULL PRIMARY KEY,
    owner      VARCHAR(64)  COLLATE "C" NOT NULL,
    token      BIGINT                   NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    -- the key's next turn (WAITING_TURNS): the waiter that takes it next, since when it waits, until when
    turn_waiter VARCHAR(64) COLLATE "C",
    turn_since  TIMESTAMP(6) WITH TIME ZONE,
    turn_until  TIMESTAMP(6) WITH TIME ZONE
);

-- The key's shared leases (SHARED_LOCKS: permits, read locks), one row each, deleted when released. While
-- they hold the key, its row in baton_locks has owner '' (no owner token is empty), the key's last token and
-- the greatest of their expiries: every acquisition of the key, shared or not, serializes on that row.
CREATE TABLE IF NOT EXISTS baton_locks_shared (
    lock_key   VARCHAR(500) COLLATE "C" NOT NULL,
    owner      VARCHAR(64)  COLLATE "C" NOT NULL,
    token      BIGINT                   NOT NULL,
    expires_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
    PRIMARY KEY (lock_key, owner)
);
