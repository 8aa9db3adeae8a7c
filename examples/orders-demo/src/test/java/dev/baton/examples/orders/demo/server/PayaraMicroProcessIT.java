package dev.baton.examples.orders.demo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Payara Micro that boots but cannot deploy its WAR fails the start at once, with its log. */
class PayaraMicroProcessIT {

    @TempDir
    Path work;

    @Test
    void aWarThatDoesNotDeployFailsTheStartWithTheLogTail() throws Exception {
        String microJar = System.getProperty("baton.demo.payaraMicro");
        assertThat(microJar)
                .as("system property baton.demo.payaraMicro (set by the servers profile)")
                .isNotBlank();
        Path broken = Files.writeString(work.resolve("broken.war"), "not a zip");
        PayaraMicroProcess.Builder server = PayaraMicroProcess.builder(Path.of(microJar), broken)
                .name("broken-war")
                .logDirectory(work);
        long start = System.nanoTime();

        assertThatThrownBy(server::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Payara Micro broken-war")
                .hasMessageContaining("without the application at /broken")
                .hasMessageContaining(work.resolve("broken-war.log").toString());
        // failed as soon as Payara Micro had booted, not after the start timeout
        assertThat(System.nanoTime() - start)
                .isLessThan(java.time.Duration.ofMinutes(2).toNanos());
    }
}
