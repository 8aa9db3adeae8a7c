package dev.baton.docs.samples.guide;

import dev.baton.LockType;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** Permits, read and write locks and a method returning a stage, as the user guide shows them. */
@ApplicationScoped
public class Exports {

    final List<String> prices = new CopyOnWriteArrayList<>();

    // tag::permits[]
    @Synchronized(value = "export", permits = 3) // at most three exports at once, across every instance
    public String export(long customer) {
        return "export of " + customer;
    }
    // end::permits[]

    // tag::read-write[]
    @Synchronized(value = "prices", type = LockType.READ) // beside other readers, never beside a writer
    public List<String> prices() {
        return List.copyOf(prices);
    }

    @Synchronized("prices") // LockType.WRITE, the default: alone, once the readers are gone
    public void reprice(String price) {
        prices.add(price);
    }
    // end::read-write[]

    // tag::stage[]
    @Synchronized("invoice:{id}")
    public CompletionStage<String> invoice(long id) { // while the key is busy, no thread waits for it
        return CompletableFuture.supplyAsync(() -> "invoice " + id);
    }
    // end::stage[]
}
