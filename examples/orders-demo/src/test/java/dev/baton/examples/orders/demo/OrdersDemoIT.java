package dev.baton.examples.orders.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.examples.orders.demo.server.ListeningSockets;
import dev.baton.examples.orders.demo.server.PayaraMicroProcess;
import dev.baton.examples.orders.demo.server.ServerLog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The demo's scenario on a real Payara Micro with the orders WAR as built: what each step saw, not
 * how long it took, and that Baton warned of nothing but the database private to the JVM. Run with {@code ./mvnw verify -Pservers -pl examples/orders-demo -am}.
 */
class OrdersDemoIT {

    @Test
    void theScenarioSeesSerializedPaymentsAConflictAndGrowingFencingTokens() throws Exception {
        ByteArrayOutputStream narration = new ByteArrayOutputStream();
        OrdersScenario.Result result;
        try (PayaraMicroProcess server = PayaraMicroProcess.builder(
                        file("baton.demo.payaraMicro"), file("baton.demo.war"))
                .name("orders-demo-it")
                .contextRoot("orders")
                .systemProperty("orders.unpaid.cancel-after", "4")
                .start()) {
            assertThat(server.baseUri().getHost()).isEqualTo("127.0.0.1");
            assertListensOnLoopbackOnly(server);

            result = new OrdersScenario(server.baseUri(), new PrintStream(narration, true, StandardCharsets.UTF_8))
                    .run("it-42");

            server.close();
            assertThat(server.isAlive()).isFalse();
            assertThat(ServerLog.batonWarnings(server.logFile(), OrdersDemo.EXPECTED_WARNINGS))
                    .as("what Baton warned of in %s", server.logFile())
                    .isEmpty();
        }

        OrdersScenario.Payments payments = result.payments();
        assertThat(payments.answers())
                .extracting(OrdersScenario.Payment::payments)
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(payments.answers())
                .extracting(OrdersScenario.Payment::paidCents)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, 8).map(n -> n * 1250).boxed().toList());
        assertThat(payments.paymentsAfter()).isEqualTo(8);
        assertThat(payments.paidCentsAfter()).isEqualTo(10_000);

        OrdersScenario.Conflict conflict = result.conflict();
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.body()).contains("order:it-42");
        assertThat(conflict.slowStatus()).isEqualTo(200);
        assertThat(conflict.slowBody()).contains("\"shipped\":true");

        assertThat(result.invoices()).hasSize(5).allMatch(number -> number.startsWith("INV-it-42-"));
        assertThat(result.fencingTokens()).isSorted().doesNotHaveDuplicates();

        OrdersScenario.Unpaid unpaid = result.unpaid();
        assertThat(unpaid.created()).contains("\"payments\":0").contains("\"cancelled\":false");
        assertThat(unpaid.cancelled()).contains("\"payments\":0").contains("\"cancelled\":true");
        assertThat(unpaid.sweeps().lines().filter(line -> !line.isEmpty() && Character.isDigit(line.charAt(0))))
                .as(unpaid.sweeps())
                .isNotEmpty()
                .allMatch(line -> line.contains(" runs=1 "));

        assertThat(narration.toString(StandardCharsets.UTF_8))
                .contains("409 Conflict")
                .contains("none lost")
                .contains("tokens strictly increasing");
    }

    /**
     * Every socket the server listens on (HTTP and its data grid) is bound to 127.0.0.1: no other machine
     * can reach it.
     */
    private static void assertListensOnLoopbackOnly(PayaraMicroProcess server) throws IOException {
        try (Socket loopback = new Socket()) {
            loopback.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 2000);
        }
        List<InetSocketAddress> listening = ListeningSockets.of(server.processHandle());
        assertThat(listening).extracting(InetSocketAddress::getPort).contains(server.port());
        assertThat(listening)
                .as("listening sockets of Payara Micro (pid %d)", server.pid())
                .hasSizeGreaterThan(1)
                .allMatch(address -> address.getAddress().isLoopbackAddress());
    }

    private static Path file(String property) {
        String value = System.getProperty(property);
        assertThat(value)
                .as("system property %s (set by the servers profile)", property)
                .isNotBlank();
        return Path.of(value);
    }
}
