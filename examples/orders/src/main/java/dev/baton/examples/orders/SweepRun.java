package dev.baton.examples.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/**
 * One run of {@link UnpaidOrders#cancelUnpaid}: its planned time, which instance ran it and how many
 * orders it cancelled. Deliberately not unique by planned time, so that a second run of one planned time
 * would show as a second row (the two-instance test counts them).
 */
@Entity
@Table(name = "example_sweep_run")
public class SweepRun {

    /** A random UUID: no generated key, whose DDL differs between JPA providers and databases. */
    @Id
    private String id;
    /** The planned time, epoch seconds: the timer's next timeout less one period. */
    @Column(name = "planned_at")
    private long plannedAt;

    @Column(name = "instance_name")
    private String instance;

    private int cancelled;

    protected SweepRun() {}

    SweepRun(long plannedAt, String instance, int cancelled) {
        this.id = UUID.randomUUID().toString();
        this.plannedAt = plannedAt;
        this.instance = instance;
        this.cancelled = cancelled;
    }
}
