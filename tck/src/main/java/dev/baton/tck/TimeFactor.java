package dev.baton.tck;

import java.time.Duration;

/**
 * The one reader of {@value #PROPERTY}: how much slower than a developer's machine this one is. Every
 * wait bound of the contract suite and of the runtime scenarios is multiplied by it.
 */
public final class TimeFactor {

    /** The system property: a positive, finite number (default 1). */
    public static final String PROPERTY = "baton.tck.timeFactor";

    private TimeFactor() {}

    /**
     * Reads {@value #PROPERTY}.
     *
     * @return the factor, 1 when the property is unset
     * @throws IllegalArgumentException when the value is not a positive, finite number
     */
    public static double get() {
        return parse(System.getProperty(PROPERTY));
    }

    /**
     * The factor {@code value} spells, by the rule of {@value #PROPERTY}.
     *
     * @param value the property's value, {@code null} when unset
     * @return the factor, 1 for {@code null}
     * @throws IllegalArgumentException naming the property and {@code value} when it is not a positive,
     *     finite number
     */
    public static double parse(String value) {
        if (value == null) {
            return 1;
        }
        double factor;
        try {
            factor = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(value, e);
        }
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw invalid(value, null);
        }
        return factor;
    }

    /** {@code base} multiplied by {@link #get()}, at least 1 ms. */
    public static Duration scale(Duration base) {
        return scale(base, get());
    }

    /** {@code base} multiplied by {@code factor}, at least 1 ms. */
    public static Duration scale(Duration base, double factor) {
        return Duration.ofMillis(Math.max(1, Math.round(base.toMillis() * factor)));
    }

    private static IllegalArgumentException invalid(String value, Throwable cause) {
        return new IllegalArgumentException(
                PROPERTY + " must be a positive, finite number, was '" + value + "'", cause);
    }
}
