package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.Synchronized;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.UnskippedBatonExtension;
import dev.baton.tck.LogCapture;
import dev.baton.tck.Together;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.InterceptionType;
import java.net.URL;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.resources.ClassLoaderResourceLoader;
import org.jboss.weld.resources.spi.ResourceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Baton's build-compatible extension, in Weld (which runs both kinds of extension): skipped where the
 * portable extension runs, so Baton's interceptor, beans and rules come once; and doing the portable
 * extension's work where it runs alone (as on a CDI Lite container), with the same messages.
 */
class BuildCompatibleExtensionTest {

    private static final String SERVICES = "META-INF/services/";

    @ApplicationScoped
    public static class Counter {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        @Synchronized("counter:{name}")
        public void count(String name) throws InterruptedException {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            Thread.sleep(1);
            inside.decrementAndGet();
        }

        public int most() {
            return most.get();
        }
    }

    @ApplicationScoped
    public static class UnknownParameter {
        @Synchronized("order:{orderId}")
        public void pay(long id) {}
    }

    @AfterEach
    void uninstall() {
        TestConfig.uninstall();
    }

    @Test
    void withThePortableExtensionOnlyThePortableOneRuns() throws Exception {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(Counter.class).initialize()) {
            BeanManager beanManager = container.getBeanManager();
            assertThat(beanManager.resolveInterceptors(InterceptionType.AROUND_INVOKE, binding()))
                    .hasSize(1);
            assertThat(beanManager.getBeans(LockRuntime.class)).hasSize(1);
            assertThat(beanManager.getBeans(LiteDeployment.class)).isEmpty();
            assertThat(beanManager.getBeans(BatonDeployment.class))
                    .singleElement()
                    .extracting(bean -> bean.getBeanClass())
                    .isEqualTo(BatonExtension.class);
            container.select(Counter.class).get().count("a");
        }
    }

    @Test
    void withThePortableExtensionABadMethodIsReportedOnce() {
        String message = "@Synchronized on " + UnknownParameter.class.getName() + ".pay()";
        Deployments.assertDeploymentFails(new String[0], UnknownParameter.class)
                .satisfies(failure -> assertThat(problems(failure, message)).isEqualTo(1));
    }

    @Test
    void aloneItRegistersTheInterceptorAndPlansTheMethods() throws Exception {
        TestConfig.install();
        try (WeldContainer container = withoutPortableExtension(Counter.class).initialize()) {
            BeanManager beanManager = container.getBeanManager();
            assertThat(beanManager.resolveInterceptors(InterceptionType.AROUND_INVOKE, binding()))
                    .hasSize(1);
            assertThat(beanManager.getBeans(BatonDeployment.class))
                    .singleElement()
                    .extracting(bean -> bean.getBeanClass())
                    .isNotEqualTo(BatonExtension.class);
            Counter counter = container.select(Counter.class).get();
            Together.run(8, thread -> {
                for (int i = 0; i < 200; i++) {
                    counter.count("shared");
                }
            });
            // the interceptor ran: without it, eight threads would overlap inside the method
            assertThat(counter.most()).isEqualTo(1);
        }
    }

    @Test
    void aloneItFailsABadMethodWithTheSameMessage() {
        Deployments.assertDeploymentFails(
                        new String[0], withoutPortableExtension(UnknownParameter.class), "UnknownParameter (Lite)")
                .hasStackTraceContaining("@Synchronized on " + UnknownParameter.class.getName() + ".pay()")
                .hasStackTraceContaining("no parameter named 'orderId'");
    }

    @Test
    void aloneAStoreProblemFailsTheStartWithTheSameMessage() {
        // Checked against the beans when the application starts (LiteDeployment), not at build time: booting the
        // container fails with the exception itself, not a CDI DeploymentException (no lookup, no first call).
        TestConfig.install();
        assertThatThrownBy(() -> withoutPortableExtension(
                                Counter.class,
                                StoreResolutionTest.SharedStore.class,
                                StoreResolutionTest.SecondSharedStore.class)
                        .initialize()
                        .close())
                .isInstanceOf(LockConfigurationException.class)
                .hasStackTraceContaining("default lock manager has 2 LockStore beans")
                .hasStackTraceContaining(StoreResolutionTest.SharedStore.class.getName());
    }

    @Test
    void aloneAMisspelledKeyWarnsOnceAtStart() {
        TestConfig.install("baton.tll=5s");
        try (LogCapture log = LogCapture.start("dev.baton");
                WeldContainer container =
                        withoutPortableExtension(Counter.class).initialize()) {
            assertThat(log.messages())
                    .filteredOn(line -> line.startsWith("BATON-08"))
                    .singleElement()
                    .asString()
                    .contains("BATON-080", "baton.tll", "did you mean baton.ttl?");
        }
    }

    /** Weld as a CDI Lite container would be: Baton's portable extensions hidden, its build-compatible one run. */
    private static Weld withoutPortableExtension(Class<?>... beans) {
        ClassLoader loader = BuildCompatibleExtensionTest.class.getClassLoader();
        ResourceLoader hiding = new ClassLoaderResourceLoader(loader) {
            @Override
            public Collection<URL> getResources(String name) {
                if (name.equals(SERVICES + jakarta.enterprise.inject.spi.Extension.class.getName())) {
                    return List.of();
                }
                return super.getResources(name);
            }
        };
        return new Weld()
                .disableDiscovery()
                .containerId(null)
                .setResourceLoader(hiding)
                .addExtension(new ConfigExtension())
                .addBuildCompatibleExtensions(UnskippedBatonExtension.class)
                .beanClasses(beans);
    }

    private static Synchronized binding() throws NoSuchMethodException {
        return Counter.class.getMethod("count", String.class).getAnnotation(Synchronized.class);
    }

    /** How many distinct Baton problems in the failure (its causes and suppressed ones) carry the message. */
    private static long problems(Throwable failure, String message) {
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.Deque<Throwable> todo = new java.util.ArrayDeque<>(List.of(failure));
        while (!todo.isEmpty()) {
            Throwable t = todo.pop();
            if (seen.add(t)) {
                if (t.getCause() != null) {
                    todo.push(t.getCause());
                }
                todo.addAll(List.of(t.getSuppressed()));
            }
        }
        return seen.stream()
                .filter(t -> t instanceof dev.baton.LockConfigurationException)
                .filter(t -> String.valueOf(t.getMessage()).contains(message))
                .count();
    }
}
