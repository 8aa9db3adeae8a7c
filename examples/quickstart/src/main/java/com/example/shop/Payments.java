package com.example.shop;

import dev.baton.Synchronized;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** The quick start's bean: one payment per order at a time, across every instance that shares the database. */
// tag::payments[]
@Stateless
public class Payments {

    @Inject
    Ledger ledger;

    @Synchronized("order:{orderId}") // the lock's key: "order:" and the parameter orderId
    public void pay(long orderId, long cents) {
        long paid = ledger.paid(orderId); // no other instance pays this order between this read
        ledger.record(orderId, paid + cents); // and this write
    }
}
// end::payments[]
