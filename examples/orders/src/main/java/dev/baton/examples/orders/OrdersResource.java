package dev.baton.examples.orders;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The orders API.
 *
 * <pre>
 * curl -X POST 'http://localhost:8080/orders/api/orders/42/payments?amount=1000'
 * curl -X POST  http://localhost:8080/orders/api/orders/42/shipment     # 409 while order:42 is busy
 * curl -X POST  http://localhost:8080/orders/api/orders/42/invoice      # INV-42-<fencing token>
 * curl          http://localhost:8080/orders/api/orders/42/lock         # the lock table's row of order:42
 * curl          http://localhost:8080/orders/api/orders/42
 * </pre>
 */
@Path("orders/{id}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {

    @Inject
    PaymentService payments;

    @Inject
    InvoiceNumbers invoices;

    @Inject
    Locks locks;

    @GET
    public String get(@PathParam("id") String id) {
        return json(payments.find(id), id);
    }

    /**
     * Creates an order without paying on it: unless a payment comes within
     * {@code orders.unpaid.cancel-after} seconds, {@link UnpaidOrders} cancels it.
     */
    @POST
    public String create(@PathParam("id") String id) {
        return payments.create(id).toJson();
    }

    /** Pays on an order; concurrent payments of one order queue on {@code order:<id>} (in the EJB). */
    @POST
    @Path("payments")
    public String pay(
            @PathParam("id") String id,
            @QueryParam("amount") @DefaultValue("100") long amountCents,
            @QueryParam("processingMillis") @DefaultValue("0") long processingMillis) {
        return payments.pay(id, amountCents, processingMillis).toJson();
    }

    /**
     * Ships an order, but only if nobody else is working on it right now: {@code await = false}
     * fails at once with {@code LockTimeoutException}, answered as 409 Conflict.
     */
    // tag::ship[]
    @POST
    @Path("shipment")
    @Synchronized(value = "order:{id}", await = false)
    public String ship(@PathParam("id") String id, @QueryParam("packingMillis") @DefaultValue("0") long packingMillis)
            throws InterruptedException {
        if (packingMillis > 0) {
            Thread.sleep(Math.min(packingMillis, 10_000));
        }
        return json(payments.ship(id), id);
    }
    // end::ship[]

    private static String json(CustomerOrder order, String id) {
        if (order == null) {
            throw new NotFoundException("no order " + id);
        }
        return order.toJson();
    }

    /** Issues an invoice number carrying a fencing token (written to the order by a fenced statement). */
    @POST
    @Path("invoice")
    @Produces(MediaType.TEXT_PLAIN)
    public String invoice(@PathParam("id") String id) {
        String number = invoices.issue(id);
        if (number == null) {
            throw new NotFoundException("no order " + id);
        }
        return number;
    }

    /**
     * Who holds {@code order:<id>} now, as the lock store tells it ({@code Locks.inspect}, any store that can
     * inspect): {@code {"key":...,"held":true,"token":N,"remainingMillis":M,"here":true|false}}, or
     * {@code {"key":...,"held":false}}.
     */
    @GET
    @Path("holder")
    public String holder(@PathParam("id") String id) {
        String key = "order:" + id;
        String json = "{\"key\":\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return locks.inspect(key)
                .map(holder -> json + ",\"held\":true,\"token\":" + holder.fencingToken() + ",\"remainingMillis\":"
                        + holder.remainingLease().toMillis() + ",\"here\":" + holder.heldHere() + "}")
                .orElse(json + ",\"held\":false}");
    }

    /** The lock store's row of {@code order:<id>}: the last fencing token and whether it is held now. */
    @GET
    @Path("lock")
    public String lock(@PathParam("id") String id) {
        String row = payments.lockRow("order:" + id);
        if (row == null) {
            throw new NotFoundException("order:" + id + " was never locked");
        }
        return row;
    }
}
