package dev.baton.examples.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * One run of {@link OrdersRelay#relay()}: which instance ran it, with the fencing token of which term, at
 * what time of the database. Written only by a fenced statement, never by {@code persist}: the entity is here
 * so that the table is created with the others and read back in order.
 */
@Entity
@Table(name = "relay_journal")
public class RelayJournalEntry {

    /** A random UUID: no generated key, whose DDL differs between JPA providers and databases. */
    @Id
    private String id;

    @Column(name = "instance_name")
    private String instance;

    /** The leader's term: the fencing token of its lock {@code leader:orders-relay}. */
    private long token;

    /** The database's {@code CURRENT_TIMESTAMP}: one clock for every instance. */
    @Column(name = "written_at")
    private LocalDateTime writtenAt;

    protected RelayJournalEntry() {}

    String toJson() {
        return "{\"instance\":\"" + instance.replace("\"", "\\\"") + "\",\"token\":" + token + ",\"writtenAt\":\""
                + writtenAt + "\"}";
    }
}
