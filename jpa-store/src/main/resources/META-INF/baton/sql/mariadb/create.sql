-- Baton JPA lock store: schema for MariaDB 10.5+ (tested on 10.11 and 11.4).
-- Usable as-is from Flyway/Liquibase; with other names, replace baton_locks (also in baton_locks_shared)
-- and baton_fencing_seq.
-- MariaDB sequences are server-wide: values are handed out in order to every connection, and a
-- restart continues above the cached block, so fencing tokens only grow.
CREATE SEQUENCE IF NOT EXISTS baton_fencing_seq START WITH 1 INCREMENT BY 1 NOCYCLE;

-- One row per key ever locked; a released lock keeps its row with an expiry in the past.
-- utf8mb4_nopad_bin compares bytes with NO PAD: 'k' <> 'K' and 'a' <> 'a ' (utf8mb4_bin is
-- PAD SPACE and would make 'a' and 'a ' one lock). The expiry is UTC, from SYSDATE(6).
CREATE TABLE IF NOT EXISTS baton_locks (
    lock_key   VARCHAR(500) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    owner      VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    token      BIGINT NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    -- the key's next turn (WAITING_TURNS): the waiter that takes it next, since when it waits, until when
    turn_waiter VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
    turn_since  DATETIME(6) NULL,
    turn_until  DATETIME(6) NULL,
    PRIMARY KEY (lock_key)
) ENGINE = InnoDB;

-- The key's shared leases (SHARED_LOCKS: permits, read locks), one row each, deleted when released. While
-- they hold the key, its row in baton_locks has owner '' (no owner token is empty), the key's last token and
-- the greatest of their expiries: every acquisition of the key, shared or not, serializes on that row.
CREATE TABLE IF NOT EXISTS baton_locks_shared (
    lock_key   VARCHAR(500) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    owner      VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    token      BIGINT NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    PRIMARY KEY (lock_key, owner)
) ENGINE = InnoDB;
