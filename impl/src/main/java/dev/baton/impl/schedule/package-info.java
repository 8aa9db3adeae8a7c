/**
 * Exclusive schedules ({@link dev.baton.Exclusive}): the per-method plans, validated at deployment; the
 * rule of one firing (try once; skip, or run and hold); and reading the container's timers. No CDI in here:
 * container timers are read through EJB and Jakarta Concurrency types, each only where present.
 */
package dev.baton.impl.schedule;
