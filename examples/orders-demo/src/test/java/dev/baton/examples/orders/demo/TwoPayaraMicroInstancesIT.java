package dev.baton.examples.orders.demo;

import dev.baton.examples.orders.demo.server.PayaraMicroProcess;
import java.nio.file.Path;

/** {@link TwoInstancesScenario} on two Payara Micro 6 processes. */
class TwoPayaraMicroInstancesIT extends TwoInstancesScenario {

    @Override
    Instance start(String name, Path war, Path directory) {
        PayaraMicroProcess.Builder builder = PayaraMicroProcess.builder(Path.of(required("baton.demo.payaraMicro")), war)
                .name(name)
                .logDirectory(directory);
        configuration().forEach(builder::systemProperty);
        PayaraMicroProcess process = builder.start();
        return new Instance("Payara Micro " + name, process.baseUri(), process);
    }
}
