package dev.baton.tck.runtime.transactions;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A named counter row. */
@Entity
@Table(name = "baton_tck_counter")
public class Counter {

    @Id
    private String name;

    private long counted;

    protected Counter() {}

    Counter(String name) {
        this.name = name;
    }

    /** Read-modify-write of the loaded value: lost if two holders overlap or read uncommitted state. */
    long increment() {
        return ++counted;
    }

    long counted() {
        return counted;
    }
}
