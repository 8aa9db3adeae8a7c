package dev.baton.bench;

import dev.baton.Lock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The second JVM of the hand-off scenario: an application instance of its own (its own entity manager
 * factory, store and engine) that acquires and releases one key when told on standard input
 * ({@code acquire}, {@code release}, {@code quit}) and answers on standard output ({@code waiting},
 * {@code held}, {@code released}). Started by {@link HandOffBench} on this module's class path.
 */
public final class HandOffPeer {

    private HandOffPeer() {}

    public static void main(String[] args) throws Exception {
        String store = args[0];
        String table = args[1];
        String key = args[2];
        PrintStream out =
                new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // only this protocol on standard output
        try (Bench.Instance instance = Bench.instance(store, table, null);
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            out.println("ready");
            Lock held = null;
            for (String line; (line = in.readLine()) != null && !line.equals("quit"); ) {
                switch (line) {
                    case "acquire" -> {
                        out.println("waiting");
                        held = instance.engine().acquire(key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true);
                        out.println("held");
                    }
                    case "release" -> {
                        held.close();
                        out.println("released");
                    }
                    default -> throw new IllegalArgumentException(line);
                }
            }
        }
        System.exit(0);
    }

    /** The benchmark's side of a peer process. */
    static final class Process implements Waiter {
        private final java.lang.Process process;
        private final BufferedReader in;
        private final PrintStream out;

        Process(String store, String table, String key) throws Exception {
            Bench.url(store); // started here if this JVM was given none, so the peer finds it
            List<String> command =
                    new ArrayList<>(List.of(java(), "-Xmx512m", "-cp", System.getProperty("java.class.path")));
            command.addAll(Bench.forkProperties(List.of(store)));
            command.addAll(List.of(HandOffPeer.class.getName(), store, table, key));
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.redirectError(Bench.dir().resolve("handoff-peer.log").toFile());
            process = builder.start();
            in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            out = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            expect("ready");
        }

        static String java() {
            return ProcessHandle.current().info().command().orElse("java");
        }

        private void expect(String word) {
            try {
                String line = in.readLine();
                if (!word.equals(line)) {
                    throw new IllegalStateException("the peer JVM said " + line + " instead of " + word + " (see "
                            + Bench.dir().resolve("handoff-peer.log") + ")");
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void startWaiting() {
            out.println("acquire");
            expect("waiting");
        }

        @Override
        public void awaitHolding() {
            expect("held");
        }

        @Override
        public void release() {
            out.println("release");
            expect("released");
        }

        @Override
        public void close() {
            out.println("quit");
            try {
                if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroy();
                }
            } catch (InterruptedException e) {
                process.destroy();
                Thread.currentThread().interrupt();
            }
        }
    }
}
