package dev.baton.faults.nemesis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The settings of a run, from system properties: {@code faults.duration} (the fault phase per database,
 * default 90s), {@code faults.fairness} (the fairness phase, default 20s), {@code faults.workers} (4),
 * {@code faults.databases} ({@code postgresql,mariadb}), {@code faults.seed} (random), {@code faults.ttl}
 * (2s), {@code faults.dir} and {@code faults.report}.
 *
 * @param faultPhase how long faults are injected, per database
 * @param fairnessPhase how long the workers contend for one key without faults
 * @param workers how many worker processes
 * @param databases which databases, in order
 * @param seed the nemesis's random seed
 * @param ttlMillis the workers' lock ttl
 * @param threads threads per worker in the fault phase
 * @param dir the directory of the runs
 * @param report the report file
 */
public record RunSettings(
        Duration faultPhase,
        Duration fairnessPhase,
        int workers,
        List<String> databases,
        long seed,
        long ttlMillis,
        int threads,
        Path dir,
        Path report) {

    /** @return the settings of this JVM */
    public static RunSettings fromSystemProperties() {
        String seed = System.getProperty("faults.seed", "");
        return new RunSettings(
                duration(System.getProperty("faults.duration", "90s")),
                duration(System.getProperty("faults.fairness", "20s")),
                Integer.getInteger("faults.workers", 4),
                List.of(System.getProperty("faults.databases", "postgresql,mariadb")
                        .toLowerCase(Locale.ROOT)
                        .split(",")),
                seed.isBlank() ? System.nanoTime() : Long.parseLong(seed.strip()),
                duration(System.getProperty("faults.ttl", "2s")).toMillis(),
                Integer.getInteger("faults.threads", 2),
                Path.of(System.getProperty("faults.dir", "target/faults")),
                Path.of(System.getProperty("faults.report", "target/faults-report.txt")));
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
