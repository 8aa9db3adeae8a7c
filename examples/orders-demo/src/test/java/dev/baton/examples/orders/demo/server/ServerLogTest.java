package dev.baton.examples.orders.demo.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Baton's warnings are found in a Payara Micro log as it writes it: in colour, a long message over several lines. */
class ServerLogTest {

    private static final String WARNING = "[\u001B[1;93mWARNING\u001B[0m]";
    private static final String INFO = "[\u001B[1;92mINFO\u001B[0m]";

    private static String record(String level, String logger, String message) {
        return "[2026-12-05T12:33:19.429+0000] [] " + level + " [] [\u001B[1;94m" + logger + "\u001B[0m]"
                + " [tid: _ThreadID=130 _ThreadName=http-thread-pool::http-listener(6)] [timeMillis: 1796473999429]"
                + " [levelValue: 900] " + message + "\n\n";
    }

    @Test
    void aBatonWarningIsFoundAndAnExpectedOneOrAnotherLoggersIsNot(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        Files.writeString(
                log,
                record(WARNING, "com.hazelcast.internal.cluster.impl.ClusterJoinManager", "members part of another")
                        + record(WARNING, "dev.baton.jpa.JpaLockStore", "BATON-JPA-020 The JPA lock store (table x)")
                        + record(INFO, "dev.baton", "BATON-001 The default lock manager uses the jpa store")
                        + record(
                                WARNING,
                                "dev.baton",
                                "[[\n  BATON-004 Releasing lock 'order:42' failed; it expires by itself at the end"
                                        + " of its lease\ndev.baton.LockStoreException: The JPA lock store failed"
                                        + "\n\tat dev.baton.jpa.JpaLockStore.execute(JpaLockStore.java:686)\n]]")
                        + record(INFO, "javax.enterprise.system.core", "done"),
                StandardCharsets.UTF_8);

        assertThat(ServerLog.batonWarnings(log, Set.of("BATON-JPA-020")))
                .singleElement()
                .asString()
                .contains("BATON-004 Releasing lock 'order:42' failed")
                .doesNotContain("\u001B");
        assertThat(ServerLog.batonWarnings(log, Set.of())).hasSize(2);
    }
}
