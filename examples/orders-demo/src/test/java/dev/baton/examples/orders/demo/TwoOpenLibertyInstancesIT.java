package dev.baton.examples.orders.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.examples.orders.demo.server.LibertyProcess;
import dev.baton.examples.orders.demo.server.ListeningSockets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link TwoInstancesScenario} on two Open Liberty 26 servers of the full runtime unpacked by the build, each
 * with its own user directory and HTTP port. The WAR's {@code web.xml} data sources name the PostgreSQL
 * driver; Liberty loads it from the global library of each server's user directory, not from the WAR.
 */
class TwoOpenLibertyInstancesIT extends TwoInstancesScenario {

    @Override
    Instance start(String name, Path war, Path directory) throws Exception {
        LibertyProcess server = LibertyProcess.start(
                Path.of(required("baton.demo.libertyHome")),
                name,
                war,
                directory.resolve(name),
                List.of(Path.of(required("baton.demo.postgresDriver"))),
                configuration(),
                Duration.ofMinutes(3));
        try {
            assertThat(ListeningSockets.notOnLoopback(server.processHandle()))
                    .as("non-loopback listeners of " + name)
                    .isEmpty();
        } catch (AssertionError e) {
            server.close();
            throw e;
        }
        return new Instance("Open Liberty " + name, server.baseUri(), server, server::kill);
    }
}
