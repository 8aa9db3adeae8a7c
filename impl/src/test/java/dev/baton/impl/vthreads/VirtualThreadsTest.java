package dev.baton.impl.vthreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.runtime.launch.Jdks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baton under virtual threads (Java 21+): {@link VirtualThreadsScenario} in a JVM of its own on the JDK
 * {@value #JDK_PROPERTY} names, else this one if 21+, else the newest 21+ installed beside it. Every one of
 * 10,000 virtual callers runs the method once and never two at a time, a virtual-thread holder keeps its
 * lock across renewals, and no virtual thread is pinned inside Baton while it waits, holds or renews.
 * Without any JDK 21+ on the machine the test is reported skipped, naming the property to set (the build
 * itself needs only Java 17).
 */
class VirtualThreadsTest {

    static final String JDK_PROPERTY = "baton.test.jdk21";

    @TempDir
    Path work;

    @Test
    void tenThousandVirtualThreadsExcludeEachOtherAndNoneIsPinnedInBaton() throws Exception {
        Path jdk = jdk21();
        Path log = work.resolve("virtual-threads.log");
        List<String> command = new ArrayList<>(List.of(
                Jdks.launcher(jdk).toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-Dbaton.store=memory",
                "-Dbaton.ttl=2s",
                VirtualThreadsScenario.class.getName(),
                work.resolve("pins.jfr").toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean exited = process.waitFor(5, TimeUnit.MINUTES);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        output.lines().filter(line -> line.startsWith("RESULT")).forEach(line -> System.out.println(jdk + ": " + line));

        assertThat(exited)
                .as("the scenario ended within 5 minutes; its output:%n%s", output)
                .isTrue();
        assertThat(output)
                .as("the scenario's output on %s", jdk)
                .contains("RESULT ok entries=10000 maxInside=1 onVirtualThreads=10000 keptThroughRenewals=true")
                .containsPattern("controlPins=[1-9]") // the recording does see a pinned virtual thread
                .contains("batonPins=0");
        assertThat(process.exitValue()).as(output).isZero();
    }

    @Test
    void aPinCountsAsBatonsOnlyWithAFrameOfBatonsOwnCode() {
        String scenario = VirtualThreadsScenario.class.getName();
        // seen in CI: the JVM loading a class for Weld's interception entry, above the scenario's own bean
        String inWeldAboveTheScenariosBean = String.join(
                "\n",
                "  at jdk.internal.loader.BuiltinClassLoader.loadClassOrNull",
                "  at java.lang.ClassLoader.loadClass",
                "  at org.jboss.weld.bean.proxy.InterceptionDecorationContext$Stack.<init>",
                "  at " + scenario + "$Counter$Proxy$_$$_WeldSubclass.increment",
                "  at " + scenario + "$$Lambda.0x00000000591cb390.run",
                "  at java.lang.VirtualThread.run");
        String inTheEngine = String.join(
                "\n",
                "  at java.lang.Object.wait0",
                "  at dev.baton.impl.engine.LockEngine.acquire",
                "  at dev.baton.impl.cdi.SynchronizedInterceptor.invoke",
                "  at " + scenario + "$Counter$Proxy$_$$_WeldSubclass.increment",
                "  at java.lang.VirtualThread.run");

        assertThat(VirtualThreadsScenario.runsBatonCode(inWeldAboveTheScenariosBean))
                .isFalse();
        assertThat(VirtualThreadsScenario.runsBatonCode(inTheEngine)).isTrue();
    }

    private static Path jdk21() throws IOException {
        String configured = System.getProperty(JDK_PROPERTY, "");
        if (!configured.isBlank()) {
            return Jdks.atLeast(21, configured, "-D" + JDK_PROPERTY);
        }
        Optional<Path> found = Jdks.beside(21);
        Assumptions.assumeTrue(
                found.isPresent(),
                () -> "no JDK 21+ is installed beside " + System.getProperty("java.home") + ": set -D" + JDK_PROPERTY
                        + "=/path/to/jdk-21-or-newer to run the virtual-thread test");
        return found.get();
    }
}
