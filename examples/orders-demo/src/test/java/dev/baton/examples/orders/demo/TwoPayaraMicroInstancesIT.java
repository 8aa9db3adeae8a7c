package dev.baton.examples.orders.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.examples.orders.demo.server.ListeningSockets;
import dev.baton.examples.orders.demo.server.PayaraMicroProcess;
import java.nio.file.Path;

/** {@link TwoInstancesScenario} on two Payara Micro 6 processes. */
class TwoPayaraMicroInstancesIT extends TwoInstancesScenario {

    @Override
    Instance start(String name, Path war, Path directory) {
        PayaraMicroProcess.Builder builder = PayaraMicroProcess.builder(
                        Path.of(required("baton.demo.payaraMicro")), war)
                .name(name)
                .logDirectory(directory);
        configuration().forEach(builder::systemProperty);
        PayaraMicroProcess process = builder.start();
        // each instance alone in a data grid of its own, reachable from this machine only
        assertThat(process.logTail(Integer.MAX_VALUE))
                .contains("DG Name: " + name + " DG Size: 1")
                .doesNotContain("DG Size: 2");
        assertThat(ListeningSockets.notOnLoopback(process.processHandle()))
                .as("non-loopback listeners of " + name)
                .isEmpty();
        return new Instance("Payara Micro " + name, process.baseUri(), process, process::kill);
    }
}
