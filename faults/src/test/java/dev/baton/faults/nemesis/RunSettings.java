package dev.baton.faults.nemesis;

import dev.baton.faults.store.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The settings of a run, from system properties: {@code faults.duration} (the fault phase per store,
 * default 40s), {@code faults.fairness} (the fairness phase, default 8s), {@code faults.workers} (4),
 * {@code faults.stores} (every store, see {@link StoreKind}), {@code faults.seed} (random), {@code faults.ttl}
 * (2s), {@code faults.leadership} (true: one thread of each worker acts as the leader of an election in the
 * fault phase), {@code faults.shared} (true: on a store that declares {@code SHARED_LOCKS}, two threads of each worker
 * take permits and read/write locks in the fault phase), {@code faults.dir} and {@code faults.report}.
 *
 * @param faultPhase how long faults are injected, per database
 * @param fairnessPhase how long the workers contend for one key without faults
 * @param workers how many worker processes
 * @param stores which stores, in order
 * @param seed the nemesis's random seed
 * @param ttlMillis the workers' lock ttl
 * @param threads threads per worker in the fault phase
 * @param leadership whether each worker also joins an election in the fault phase and acts while it leads
 * @param shared whether each worker also takes permits and read/write locks in the fault phase, on the stores that
 *     declare {@code SHARED_LOCKS}
 * @param dir the directory of the runs
 * @param report the report file
 */
public record RunSettings(
        Duration faultPhase,
        Duration fairnessPhase,
        int workers,
        List<StoreKind> stores,
        long seed,
        long ttlMillis,
        int threads,
        boolean leadership,
        boolean shared,
        Path dir,
        Path report) {

    /** @return the settings of this JVM */
    public static RunSettings fromSystemProperties() {
        String seed = System.getProperty("faults.seed", "");
        return new RunSettings(
                duration(System.getProperty("faults.duration", "40s")),
                duration(System.getProperty("faults.fairness", "8s")),
                Integer.getInteger("faults.workers", 4),
                stores(System.getProperty("faults.stores", "")),
                seed.isBlank() ? System.nanoTime() : Long.parseLong(seed.strip()),
                duration(System.getProperty("faults.ttl", "2s")).toMillis(),
                Integer.getInteger("faults.threads", 2),
                Boolean.parseBoolean(
                        System.getProperty("faults.leadership", "true").strip()),
                Boolean.parseBoolean(System.getProperty("faults.shared", "true").strip()),
                Path.of(System.getProperty("faults.dir", "target/faults")),
                Path.of(System.getProperty("faults.report", "target/faults-report.txt")));
    }

    /**
     * @param text a comma-separated list of {@link StoreKind#label()}s; blank: every store
     * @return the stores
     */
    static List<StoreKind> stores(String text) {
        if (text.isBlank()) {
            return List.of(StoreKind.values());
        }
        return java.util.Arrays.stream(text.split(","))
                .filter(s -> !s.isBlank())
                .map(StoreKind::of)
                .toList();
    }

    /**
     * @param text {@code 90s}, {@code 2m}, {@code 30m}, {@code 1h}, {@code 500ms} or ISO-8601
     * @return the duration
     */
    static Duration duration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.startsWith("p")) {
            return Duration.parse(t.toUpperCase(Locale.ROOT));
        }
        if (t.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        }
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        return switch (t.charAt(t.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("not a duration: '" + text + "' (use e.g. 90s, 2m, 30m)");
        };
    }
}
