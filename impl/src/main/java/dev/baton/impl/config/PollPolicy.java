package dev.baton.impl.config;

import dev.baton.LockConfigurationException;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * How a waiter polls the store: the first pause ({@code minMillis}), doubling up to {@code maxMillis}, each
 * pause shortened by a random part of up to {@code jitter} of itself. Validated when built.
 *
 * @param minMillis the first pause before jitter, at least 1 ms
 * @param maxMillis the longest pause while the store does not notify releases, at least {@code minMillis}
 * @param jitter the largest fraction taken off a pause at random, from 0 (none) to 1
 */
public record PollPolicy(long minMillis, long maxMillis, double jitter) {

    /** The default first pause: 5 ms. */
    public static final long DEFAULT_MIN_MILLIS = 5;
    /** The default longest pause: 500 ms. */
    public static final long DEFAULT_MAX_MILLIS = 500;
    /** The default jitter: each pause between half and all of its step. */
    public static final double DEFAULT_JITTER = 0.5;
    /** The default policy. */
    public static final PollPolicy DEFAULT = new PollPolicy(DEFAULT_MIN_MILLIS, DEFAULT_MAX_MILLIS, DEFAULT_JITTER);

    private static final Pattern FRACTION = Pattern.compile("\\d{1,9}(\\.\\d{0,9})?|\\.\\d{1,9}");

    /**
     * @throws IllegalArgumentException if a value is out of range
     */
    public PollPolicy {
        if (minMillis < 1) {
            throw new IllegalArgumentException(
                    "the minimum poll interval must be at least 1 ms, was " + minMillis + " ms");
        }
        if (maxMillis < minMillis) {
            throw new IllegalArgumentException("the maximum poll interval (" + maxMillis
                    + " ms) must not be shorter than the minimum (" + minMillis + " ms)");
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("the poll jitter must be from 0 to 1, was " + jitter);
        }
    }

    /**
     * Parses a jitter: a decimal fraction from 0 to 1, e.g. {@code 0.25}.
     *
     * @param value the text
     * @param where what it was read from (a config key, or an annotation member), for the message
     * @return the fraction
     * @throws LockConfigurationException naming {@code where} and the value
     */
    public static double parseJitter(String value, String where) {
        String text = value == null ? "" : value.trim();
        if (!FRACTION.matcher(text).matches()) {
            throw new LockConfigurationException(
                    "Invalid jitter '" + value + "' for " + where + ": not a decimal fraction (use e.g. 0, 0.25 or 1)");
        }
        double jitter = Double.parseDouble(text);
        if (jitter > 1) {
            throw new LockConfigurationException(
                    "Invalid jitter '" + value + "' for " + where + ": must be from 0 to 1");
        }
        return jitter;
    }

    /**
     * This policy with some of its values replaced, e.g. a named manager's over the default manager's, or a
     * method's over its manager's.
     *
     * @param min the new minimum, if set
     * @param minWhere where it was read, for the message
     * @param max the new maximum, if set
     * @param maxWhere where it was read, for the message
     * @param jitter the new jitter, if set
     * @return the merged policy
     * @throws LockConfigurationException if the merged maximum is shorter than the merged minimum, naming where
     *     each came from
     */
    public PollPolicy with(
            OptionalLong min, String minWhere, OptionalLong max, String maxWhere, OptionalDouble jitter) {
        long lo = min.orElse(minMillis);
        long hi = max.orElse(maxMillis);
        if (hi < lo) {
            throw new LockConfigurationException("the maximum poll interval " + hi + " ms ("
                    + (max.isPresent() ? maxWhere : "inherited; set " + maxWhere + " too")
                    + ") is shorter than the minimum " + lo + " ms ("
                    + (min.isPresent() ? minWhere : "inherited; set " + minWhere + " too") + ")");
        }
        return new PollPolicy(lo, hi, jitter.orElse(this.jitter));
    }
}
