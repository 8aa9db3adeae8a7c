package dev.baton.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The README's Java SE demo ("No application server at hand?", {@code -Pdemo -pl examples/demo-se}) runs this:
 * keep it working, and keep it telling the truth.
 */
class DemoTest {

    @Test
    void theDemoRunsEveryStep() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Demo.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out)
                .contains("fencing token 6 (workers inside: 1)")
                .contains("was not acquired within 300 ms")
                .contains("(not waiting)")
                .contains("after the recount, quickLook gets the inventory at once")
                .contains("still held after 900 ms (longer than the lease): true")
                .containsPattern("lost: Lock 'nightly-import' \\(fencing token \\d+\\) is no longer held: "
                        + "(renewing failed until its lease was over|its lease ran out before it could be renewed)")
                .contains("event LockLost observed: key=nightly-import")
                .contains("isHeld() = false")
                .endsWith("Done.\n");
    }
}
