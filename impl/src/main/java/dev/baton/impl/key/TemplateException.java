package dev.baton.impl.key;

/** A key template that cannot be compiled; the message names the placeholder and why. */
public final class TemplateException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    TemplateException(String message) {
        super(message);
    }
}
