package dev.baton.examples.orders.demo;

import dev.baton.examples.orders.demo.server.WildFlyProcess;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@link TwoInstancesScenario} on two WildFly 39 servers ({@code standalone.xml}, each with its own server
 * directory and port offset) from the distribution unpacked by the build.
 */
class TwoWildFlyInstancesIT extends TwoInstancesScenario {

    @Override
    Instance start(String name, Path war, Path directory) throws Exception {
        WildFlyProcess server = WildFlyProcess.start(
                Path.of(required("baton.demo.wildflyHome")),
                name,
                war,
                directory.resolve(name),
                configuration(),
                Duration.ofMinutes(3));
        return new Instance("WildFly " + name, server.baseUri(), server, server::kill);
    }

    /** WildFly takes a data source's user from its element, not from the URL. */
    @Override
    boolean userAsElement() {
        return true;
    }
}
