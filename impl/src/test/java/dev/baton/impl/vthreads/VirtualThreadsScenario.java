package dev.baton.impl.vthreads;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.testing.ExclusionDetector;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Runs in a JVM of Java 21+ (started by {@link VirtualThreadsTest}; Baton's test code compiles for 17, so
 * virtual threads are reached reflectively): {@value #CALLERS} virtual threads through one
 * {@code @Synchronized} method of a Weld SE application, a virtual thread holding a lock across several
 * renewals, and a Java Flight Recorder recording of every pinned virtual thread. A control first pins a
 * virtual thread on purpose (it sleeps in a class initializer, which pins on every Java), so a recording
 * that catches nothing cannot pass for "no pinning". Prints one {@code RESULT} line; exits 1 on a violation.
 */
public final class VirtualThreadsScenario {

    static final int CALLERS = 10_000;
    static final int WARM_UP_CALLERS = 2_000;
    static final String PINNED = "jdk.VirtualThreadPinned";

    private VirtualThreadsScenario() {}

    /** The method every virtual thread goes through. */
    @ApplicationScoped
    public static class Counter {
        private final ExclusionDetector detector = new ExclusionDetector();
        private final AtomicInteger onVirtualThreads = new AtomicInteger();

        public ExclusionDetector detector() {
            return detector;
        }

        public int onVirtualThreads() {
            return onVirtualThreads.get();
        }

        @Synchronized(value = "counter", timeout = "10m")
        public void increment() {
            detector.enter();
            if (isVirtual(Thread.currentThread())) {
                onVirtualThreads.incrementAndGet();
            }
            detector.exit();
        }
    }

    /** The same path on another key, before the recording starts. */
    @ApplicationScoped
    public static class WarmUp {
        @Synchronized(value = "warm-up", timeout = "10m")
        public void increment() {
            Thread.yield();
        }
    }

    /** A holder that keeps its lock across renewals, on a virtual thread. */
    @ApplicationScoped
    public static class LongHolder {
        @Inject
        Locks locks;

        boolean holdThroughRenewals(Duration hold) throws InterruptedException {
            Lock lock = locks.acquire("long-holder");
            Instant firstLease = lock.validUntil();
            try {
                Thread.sleep(hold.toMillis());
                // still held, never lost, and its lease moved past the first one: it was renewed
                return lock.isHeld()
                        && !lock.whenLost().toCompletableFuture().isDone()
                        && lock.validUntil().isAfter(firstLease.plus(hold).minusSeconds(2));
            } finally {
                lock.release();
            }
        }
    }

    /** Pins the virtual thread that initializes it: class initialization is pinned on every Java version. */
    static final class PinsWhileInitializing {
        static {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {}
    }

    public static void main(String[] args) throws Exception {
        Path recordingFile = Path.of(args[0]);
        ExecutorService virtual = newVirtualThreadPerTaskExecutor();
        Weld weld = new Weld()
                .disableDiscovery()
                .addExtensions(new BatonExtension(), new ConfigExtension())
                .addBeanClasses(Counter.class, LongHolder.class, WarmUp.class);
        boolean ok;
        try (WeldContainer container = weld.initialize()) {
            // Warm-up, not recorded: the first callers load and link the classes on the path, and the JVM pins
            // a virtual thread that waits for a class another thread is loading, whatever the library.
            WarmUp warmUp = container.select(WarmUp.class).get();
            runAll(virtual, WARM_UP_CALLERS, warmUp::increment);
            try (Recording recording = new Recording()) {
                recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
                recording.start();
                virtual.submit(PinsWhileInitializing::touch).get();
                String outcome = run(
                        virtual,
                        container.select(Counter.class).get(),
                        container.select(LongHolder.class).get());
                recording.stop();
                recording.dump(recordingFile);
                List<String> pins = pinnedStacks(recordingFile);
                long control = pins.stream()
                        .filter(stack -> stack.contains(PinsWhileInitializing.class.getName()))
                        .count();
                List<String> baton = pins.stream()
                        .filter(stack -> !stack.contains(PinsWhileInitializing.class.getName()))
                        .filter(VirtualThreadsScenario::runsBatonCode)
                        .toList();
                System.out.println("RESULT " + outcome + " controlPins=" + control + " batonPins=" + baton.size());
                baton.stream().limit(3).forEach(stack -> System.out.println("PINNED IN BATON:\n" + stack));
                ok = outcome.startsWith("ok") && control > 0 && baton.isEmpty();
            }
        } finally {
            virtual.shutdownNow();
        }
        System.exit(ok ? 0 : 1);
    }

    private static String run(ExecutorService virtual, Counter counter, LongHolder holder) throws Exception {
        // ttl 2 s (set by the test): held for 5 s, the lock is renewed several times while its holder, a
        // virtual thread, sleeps and 10,000 others wait for "counter"
        Future<Boolean> held = virtual.submit(() -> holder.holdThroughRenewals(Duration.ofSeconds(5)));
        runAll(virtual, CALLERS, counter::increment);
        boolean keptThroughRenewals = held.get(1, TimeUnit.MINUTES);
        int entries = counter.detector().entries();
        int maxInside = counter.detector().maxInside();
        boolean ok =
                entries == CALLERS && maxInside == 1 && counter.onVirtualThreads() == CALLERS && keptThroughRenewals;
        return (ok ? "ok" : "VIOLATION") + " entries=" + entries + " maxInside=" + maxInside + " onVirtualThreads="
                + counter.onVirtualThreads() + " keptThroughRenewals=" + keptThroughRenewals;
    }

    private static void runAll(ExecutorService virtual, int callers, Runnable call) throws Exception {
        List<Future<?>> calls = new ArrayList<>(callers);
        for (int i = 0; i < callers; i++) {
            calls.add(virtual.submit(call));
        }
        for (Future<?> each : calls) {
            each.get(10, TimeUnit.MINUTES);
        }
    }

    /**
     * Whether a pinned stack has a frame of Baton's own code. This scenario's classes (its beans, their Weld
     * proxies and lambdas) are in a Baton package too but are the application here: a pin in Weld's
     * interception entry above them (say, the JVM loading a class for Weld) is not Baton's.
     */
    static boolean runsBatonCode(String stack) {
        String scenario = VirtualThreadsScenario.class.getName();
        return stack.lines()
                .map(frame -> frame.strip().substring("at ".length()))
                .anyMatch(frame -> frame.startsWith("dev.baton.") && !frame.startsWith(scenario));
    }

    private static List<String> pinnedStacks(Path recordingFile) throws Exception {
        List<String> stacks = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recordingFile)) {
            if (!PINNED.equals(event.getEventType().getName()) || event.getStackTrace() == null) {
                continue;
            }
            StringBuilder stack = new StringBuilder();
            for (RecordedFrame frame : event.getStackTrace().getFrames()) {
                stack.append("  at ")
                        .append(frame.getMethod().getType().getName())
                        .append('.')
                        .append(frame.getMethod().getName())
                        .append('\n');
            }
            stacks.add(stack.toString());
        }
        Files.deleteIfExists(recordingFile);
        return stacks;
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService)
                Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    private static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
