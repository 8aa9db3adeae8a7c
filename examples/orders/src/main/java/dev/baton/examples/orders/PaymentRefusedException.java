package dev.baton.examples.orders;

import jakarta.ejb.ApplicationException;

/**
 * A payment the order refuses (an amount that is not positive). It rolls the payment's transaction
 * back — the order a first payment would have created included — but not the lock on the order,
 * which the lock store took and released in statements of its own.
 */
@ApplicationException(rollback = true)
public class PaymentRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    PaymentRefusedException(String message) {
        super(message);
    }
}
