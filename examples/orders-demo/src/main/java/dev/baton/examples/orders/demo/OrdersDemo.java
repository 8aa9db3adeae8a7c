package dev.baton.examples.orders.demo;

import dev.baton.examples.orders.demo.server.PayaraMicroProcess;
import dev.baton.examples.orders.demo.server.ServerLog;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Starts the orders example WAR on Payara Micro (loopback, a free port, the WAR's own embedded H2),
 * runs {@link OrdersScenario} against it, prints what a user can try by hand, and stops the server.
 * Exits non-zero with a message on any unexpected answer, or when Baton logged a warning other than
 * {@link #EXPECTED_WARNINGS}.
 *
 * <pre>./mvnw -q -Pdemo -pl examples/orders-demo -am package -DskipTests</pre>
 */
public final class OrdersDemo {

    private static final PrintStream OUT = System.out;

    /**
     * What Baton may warn of in the demo: {@code BATON-JPA-020}, the store's database is the WAR's own H2 in
     * memory, private to the JVM. Any other warning fails the demo.
     */
    static final Set<String> EXPECTED_WARNINGS = Set.of("BATON-JPA-020");

    private OrdersDemo() {}

    /**
     * Runs the demo.
     *
     * @param args {@code payara-micro.jar} and the orders WAR (default: both in {@code target/})
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        Path microJar = Path.of(args.length > 0 ? args[0] : "target/payara-micro.jar");
        Path war = Path.of(args.length > 1 ? args[1] : "target/orders.war");
        try {
            run(microJar, war);
        } catch (OrdersScenario.UnexpectedAnswer | IllegalStateException e) {
            System.err.println();
            System.err.println("The orders demo FAILED: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void run(Path microJar, Path war) throws InterruptedException {
        for (Path file : new Path[] {microJar, war}) {
            if (!Files.isRegularFile(file)) {
                throw new IllegalStateException(file.toAbsolutePath() + " is missing; run the demo through Maven:"
                        + " ./mvnw -q -Pdemo -pl examples/orders-demo -am package -DskipTests");
            }
        }
        OUT.printf("Starting Payara Micro with the orders example (%s) on 127.0.0.1 ...%n", war.getFileName());
        long start = System.nanoTime();
        Path log;
        try (PayaraMicroProcess server = PayaraMicroProcess.builder(microJar, war)
                .name("orders-demo-payara-micro")
                .contextRoot("orders")
                // unpaid orders are cancelled after 4 s instead of 60 (step 4)
                .systemProperty("orders.unpaid.cancel-after", "4")
                .start()) {
            log = server.logFile();
            OUT.printf(
                    "Up in %d s at %s (log: %s)%n%n",
                    (System.nanoTime() - start) / 1_000_000_000, server.baseUri(), relative(server.logFile()));
            new OrdersScenario(server.baseUri(), OUT).run("42");
            OUT.println();
            tryItYourself(microJar, war);
            OUT.println();
            OUT.print("Stopping Payara Micro ... ");
        }
        OUT.println("stopped.");
        List<String> warnings = ServerLog.batonWarnings(log, EXPECTED_WARNINGS);
        if (!warnings.isEmpty()) {
            throw new IllegalStateException("Baton logged " + warnings.size() + " warning(s) in " + relative(log)
                    + ", the first:\n" + warnings.get(0));
        }
    }

    private static void tryItYourself(Path microJar, Path war) {
        URI api = URI.create("http://localhost:8080/orders/api/orders/7");
        OUT.println("Try it yourself:");
        OUT.printf(
                "  java -jar %s --nocluster --port 8080 --contextroot orders --deploy %s%n",
                relative(microJar), relative(war));
        OUT.printf("  curl -X POST '%s/payments?amount=1000'%n", api);
        OUT.printf("  curl -X POST '%s/shipment?packingMillis=5000' &   # holds order:7 for 5 s%n", api);
        OUT.printf("  curl -X POST  %s/shipment                         # 409 Conflict meanwhile%n", api);
        OUT.printf("  curl -X POST  %s/invoice%n", api);
        OUT.printf("  curl          %s/lock                              # the lock table's row%n", api);
        OUT.printf("  curl          %s%n", api);
        OUT.printf(
                "  curl -X POST  %s-unpaid                            # created unpaid: cancelled after 60 s%n", api);
        OUT.printf(
                "  curl          %s                                     # the exclusive timer's runs per planned time%n",
                URI.create("http://localhost:8080/orders/api/sweeps"));
    }

    private static Path relative(Path file) {
        Path here = Path.of("").toAbsolutePath();
        Path absolute = file.toAbsolutePath().normalize();
        return absolute.startsWith(here) ? here.relativize(absolute) : absolute;
    }
}
