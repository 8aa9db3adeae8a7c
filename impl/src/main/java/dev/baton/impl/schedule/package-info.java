/**
 * Exclusive schedules ({@link dev.baton.Exclusive}): the per-method plans, validated at deployment; the
 * rule of one firing (try once; skip, or run and hold); and reading the container's timers and the schedulers'
 * annotations. No CDI in here: container timers are read through EJB and Jakarta Concurrency types, and Quarkus's
 * and Helidon's schedules by their annotations' names, each only where present.
 */
package dev.baton.impl.schedule;
