package dev.baton.examples.orders;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A refused payment is the client's mistake: 400, with the reason as plain text. */
@Provider
public class PaymentRefusedMapper implements ExceptionMapper<PaymentRefusedException> {

    @Override
    public Response toResponse(PaymentRefusedException refused) {
        return Response.status(Response.Status.BAD_REQUEST)
                .type(MediaType.TEXT_PLAIN_TYPE)
                .entity(refused.getMessage())
                .build();
    }
}
