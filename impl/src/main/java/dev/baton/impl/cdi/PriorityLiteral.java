package dev.baton.impl.cdi;

import jakarta.annotation.Priority;
import jakarta.enterprise.util.AnnotationLiteral;

/** A {@link Priority} instance, to set the interceptor's configured priority. */
final class PriorityLiteral extends AnnotationLiteral<Priority> implements Priority {

    private static final long serialVersionUID = 1L;

    private final int value;

    PriorityLiteral(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
