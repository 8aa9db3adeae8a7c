package dev.baton.faults.check;

/**
 * What the checker needs to know about the run.
 *
 * @param ttlMillis the workers' lock ttl
 * @param hiccupMillis a pause of a worker the worker noticed itself (GC, an overloaded machine) counts
 *     as an explanation from this length on
 * @param slackMillis what may be added to a ttl before a recovery time is reported as too long
 */
public record CheckSettings(long ttlMillis, long hiccupMillis, long slackMillis) {

    /**
     * @param ttlMillis the workers' ttl
     * @return the defaults for it: a hiccup counts from a third of the ttl (a renewal interval), slack 1 s
     */
    public static CheckSettings forTtl(long ttlMillis) {
        return new CheckSettings(ttlMillis, ttlMillis / 3, 1_000);
    }
}
