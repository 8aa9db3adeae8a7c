/**
 * Exclusive schedules ({@link dev.baton.Exclusive}): the per-method plans, validated at deployment; the
 * rule of one firing (try once; skip, or run and hold); and reading the container's timers. No CDI in here.
 */
package dev.baton.impl.schedule;
