package dev.baton.faults.worker;

import dev.baton.jpa.JpaDatabase;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A worker's settings, from system properties {@code faults.*} (the Baton settings are ordinary
 * {@code baton.*} system properties, read by MicroProfile Config).
 *
 * @param dir the run directory (histories)
 * @param slot the worker's slot
 * @param control the file whose content says what to do: {@code idle}, {@code fair}, {@code faults}, {@code stop}
 * @param jdbcUrl the application's database (for the JPA store through this worker's proxy)
 * @param database which database
 * @param fencedWrites whether the protected write goes through the JPA store's {@code FencedWrites}; otherwise
 *     through the token column of the application's row
 * @param lockFiles the file store's directory, whose files the worker reads when the nemesis asks (the
 *     {@code reader} fault); empty for other stores
 * @param keys the keys of the fault phase
 * @param threads the threads of the fault phase
 * @param pauseMillis the pause between the unfenced read and write
 * @param thinkMillis the most a thread waits between two sections
 * @param drainMillis how long the shutdown hook waits for running sections (an application's graceful stop)
 * @param leadership whether a thread of the fault phase joins the run's election and acts as its leader
 * @param shared whether two threads of the fault phase take shared leases: one of the permits of
 *     {@value dev.baton.faults.history.Vocabulary#PERMIT_KEY}, and {@value dev.baton.faults.history.Vocabulary#RW_KEY}
 *     for reading or writing (the suite turns it on only for a store that declares {@code SHARED_LOCKS})
 */
public record WorkerSettings(
        Path dir,
        int slot,
        Path control,
        String jdbcUrl,
        JpaDatabase database,
        boolean fencedWrites,
        Optional<Path> lockFiles,
        List<String> keys,
        int threads,
        long pauseMillis,
        long thinkMillis,
        long drainMillis,
        boolean leadership,
        boolean shared) {

    /** @return the settings of this JVM */
    public static WorkerSettings fromSystemProperties() {
        return new WorkerSettings(
                Path.of(required("faults.dir")),
                Integer.parseInt(required("faults.slot")),
                Path.of(required("faults.control")),
                required("faults.jdbc-url"),
                JpaDatabase.valueOf(required("faults.database")),
                Boolean.parseBoolean(required("faults.fenced-writes")),
                Optional.ofNullable(System.getProperty("baton.file.directory")).map(Path::of),
                List.of(System.getProperty("faults.keys", "k0,k1,k2").split(",")),
                Integer.getInteger("faults.threads", 2),
                Long.getLong("faults.pause", 40),
                Long.getLong("faults.think", 30),
                Long.getLong("faults.drain", 1_000),
                Boolean.getBoolean("faults.leadership"),
                Boolean.getBoolean("faults.shared"));
    }

    private static String required(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("the system property " + name + " is missing");
        }
        return value;
    }
}
