package dev.baton.docs.samples.guide;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A {@code @Synchronized} method that hands its lock's fencing token to what it writes. */
@ApplicationScoped
public class Stock {

    @Inject
    Locks locks;

    @Inject
    Warehouse warehouse;

    // tag::current[]
    @Synchronized("stock:{sku}")
    public void restock(String sku, int amount) {
        long token = locks.current().orElseThrow().fencingToken();
        warehouse.write(sku, amount, token); // refuses a token lower than the last one it accepted
    }
    // end::current[]
}
