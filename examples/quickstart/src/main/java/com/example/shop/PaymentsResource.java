package com.example.shop;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

/** {@code POST /api/orders/7/payments?cents=1250} pays, {@code GET /api/orders/7/paid} tells the total. */
@Path("orders/{orderId}")
@RequestScoped
public class PaymentsResource {

    @EJB
    Payments payments;

    @Inject
    Ledger ledger;

    @POST
    @Path("payments")
    public long pay(@PathParam("orderId") long orderId, @QueryParam("cents") long cents) {
        payments.pay(orderId, cents);
        return ledger.paid(orderId);
    }

    @GET
    @Path("paid")
    public long paid(@PathParam("orderId") long orderId) {
        return ledger.paid(orderId);
    }
}
