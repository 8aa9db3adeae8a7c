package dev.baton.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * The lock table as a read-only JPA entity, for monitoring and reports (list it in your persistence
 * unit with {@code <class>dev.baton.jpa.LockRecord</class>}). It maps the default table
 * {@code baton_locks}; for another name, override it in {@code orm.xml}. The store itself does not
 * use it: it writes with one native statement per operation. A row whose expiry has passed is not a
 * lock (released locks keep their row with an expiry in the past). Never write through it. The store
 * changes rows behind the provider's back: a provider's shared cache (EclipseLink caches by default)
 * may hold an older state of a row; {@code refresh} it, or disable the cache for this entity.
 */
@Entity(name = "BatonLock")
@Table(name = "baton_locks")
public class LockRecord {

    @Id
    @Column(name = "lock_key", length = 500, nullable = false, updatable = false)
    private String key;

    @Column(name = "owner", length = 64, nullable = false, updatable = false)
    private String owner;

    @Column(name = "token", nullable = false, updatable = false)
    private long fencingToken;

    @Column(name = "expires_at", nullable = false, updatable = false)
    private OffsetDateTime expiresAt;

    @Column(name = "turn_waiter", length = 64, updatable = false)
    private String turnWaiter;

    @Column(name = "turn_since", updatable = false)
    private OffsetDateTime turnSince;

    @Column(name = "turn_until", updatable = false)
    private OffsetDateTime turnUntil;

    /** For JPA. */
    protected LockRecord() {}

    /** @return the key */
    public String getKey() {
        return key;
    }

    /**
     * The owner token of the latest exclusive acquisition; empty while shared leases (permits, read locks) hold the
     * key or held it last: their owners, tokens and expiries are in the table of shared leases,
     * {@code baton_locks_shared}.
     *
     * @return the owner token, or the empty string
     */
    public String getOwner() {
        return owner;
    }

    /** @return the fencing token of the latest acquisition, exclusive or shared */
    public long getFencingToken() {
        return fencingToken;
    }

    /**
     * When the lease ends or ended, by the database clock (UTC on MariaDB); for a key held by shared leases, when
     * the last of them ends.
     *
     * @return the expiry
     */
    public OffsetDateTime getExpiresAt() {
        return expiresAt;
    }

    /**
     * The waiter whose turn it is to take the key next (fair turns), if any. A turn whose
     * {@linkplain #getTurnUntil() end} has passed is nobody's.
     *
     * @return the waiter of the key's turn, or null
     */
    public String getTurnWaiter() {
        return turnWaiter;
    }

    /** @return since when the turn's waiter waits, by the database clock, or null */
    public OffsetDateTime getTurnSince() {
        return turnSince;
    }

    /** @return when the turn ends unless its waiter asks again, by the database clock, or null */
    public OffsetDateTime getTurnUntil() {
        return turnUntil;
    }
}
