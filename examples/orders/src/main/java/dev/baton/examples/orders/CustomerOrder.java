package dev.baton.examples.orders;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An order: what was paid on it, by how many payments, whether it has shipped, and whether it was
 * cancelled because nothing was paid on it in time ({@link UnpaidOrders}).
 */
@Entity
@Table(name = "example_order")
public class CustomerOrder {

    @Id
    private String id;

    private long paidCents;
    private int payments;
    private boolean shipped;
    /** The fencing token of the last invoice, written by a fenced statement ({@link InvoiceNumbers}). */
    @Column(name = "invoice_token")
    private Long invoiceToken;
    /** When the order was created (epoch milliseconds). */
    @Column(name = "created_at")
    private long createdAtMillis;

    private boolean cancelled;

    protected CustomerOrder() {}

    CustomerOrder(String id) {
        this.id = id;
        this.createdAtMillis = System.currentTimeMillis();
    }

    /**
     * Read-modify-write: two payments of one order running at once would lose one of the
     * increments, which is what {@code @Synchronized("order:{orderId}")} prevents.
     */
    void pay(long amountCents) {
        paidCents += amountCents;
        payments++;
    }

    void ship() {
        shipped = true;
    }

    public String getId() {
        return id;
    }

    public long getPaidCents() {
        return paidCents;
    }

    public int getPayments() {
        return payments;
    }

    public boolean isShipped() {
        return shipped;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public Long getInvoiceToken() {
        return invoiceToken;
    }

    String toJson() {
        return "{\"id\":\"" + id.replace("\"", "\\\"") + "\",\"paidCents\":" + paidCents
                + ",\"payments\":" + payments + ",\"shipped\":" + shipped + ",\"invoiceToken\":" + invoiceToken
                + ",\"cancelled\":" + cancelled + "}";
    }
}
