package dev.baton.examples.orders;

import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Locks;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * An outbox relay: work that one instance does at a time, and another takes over when that one crashes.
 * Every instance fires the timer every second; {@code @Leader("orders-relay")} runs the method in the instance
 * that leads the election (it holds the lock {@code leader:orders-relay}) and skips it in the others.
 *
 * <p>Instead of publishing anything, each run appends a row to {@code relay_journal}: this instance's name,
 * the term's fencing token and the database's time. The insert is <em>fenced</em>: it writes nothing once a row
 * with a higher token is committed, so a leader whose term ended without its knowing (a long pause, a
 * partition) cannot write after its successor has. (A receiver that must also refuse a stale write racing the
 * successor's first one keeps the highest token in one row it updates, as {@link InvoiceNumbers} does.) {@code GET /api/relay} shows who leads and the journal; the
 * two-instance test kills the leader and reads in it when the other one took over.
 */
@Singleton
public class OrdersRelay {

    /** The election's name: the lock is {@code leader:orders-relay}. */
    static final String ELECTION = "orders-relay";

    /** Appends a row unless a later term has written one: the fence is the {@code NOT EXISTS}. */
    private static final String APPEND_IF_NO_LATER_TERM =
            "INSERT INTO relay_journal (id, instance_name, token, written_at)"
                    + " SELECT ?1, ?2, ?3, CURRENT_TIMESTAMP"
                    + " WHERE NOT EXISTS (SELECT 1 FROM relay_journal WHERE token > ?3)";

    @Inject
    Locks locks;

    @Inject
    @ConfigProperty(name = "baton.ttl", defaultValue = "30s")
    String ttl;

    @PersistenceContext(unitName = "orders")
    EntityManager em;

    /**
     * One run of the relay, in the leader only. The EJB defaults of {@code minute} and {@code hour} are 0, not
     * every: both are spelled out.
     */
    @Leader(ELECTION)
    @Schedule(second = "*", minute = "*", hour = "*", persistent = false)
    public void relay() {
        // the term may end between the interceptor's check and here: then there is no token, and nothing to do
        long token = leadership().token().orElse(-1);
        if (token < 0) {
            return;
        }
        em.createNativeQuery(APPEND_IF_NO_LATER_TERM)
                .setParameter(1, UUID.randomUUID().toString())
                .setParameter(2, UnpaidOrders.INSTANCE)
                .setParameter(3, token)
                .executeUpdate();
    }

    /**
     * This instance's view of the election and the last {@code limit} rows of the journal, oldest first, in
     * the database's order ({@code written_at}, then token), as JSON:
     * {@code {"instance":...,"leads":...,"token":...,"ttl":...,"journal":[{"instance":...,"token":...,"writtenAt":...}]}}.
     * Read-locked, so that reading does not wait for a run of the relay.
     */
    @Lock(LockType.READ)
    public String state(int limit) {
        Leadership leadership = leadership();
        List<RelayJournalEntry> newestFirst = em.createQuery(
                        "SELECT e FROM RelayJournalEntry e ORDER BY e.writtenAt DESC, e.token DESC",
                        RelayJournalEntry.class)
                .setMaxResults(limit)
                .getResultList();
        List<RelayJournalEntry> oldestFirst = new ArrayList<>(newestFirst);
        Collections.reverse(oldestFirst);
        String journal = oldestFirst.stream().map(RelayJournalEntry::toJson).collect(Collectors.joining(",", "[", "]"));
        return "{\"instance\":\"" + UnpaidOrders.INSTANCE + "\",\"leads\":" + leadership.isLeader() + ",\"token\":"
                + (leadership.token().isPresent() ? leadership.token().getAsLong() : "null") + ",\"ttl\":\""
                + ttl.replace("\"", "") + "\",\"journal\":" + journal + "}";
    }

    /** This instance's candidacy, the one {@code @Leader} joined at startup. */
    private Leadership leadership() {
        return locks.lead(ELECTION);
    }
}
