package dev.baton.impl.cdi;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;

import dev.baton.LockKeyResolver;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** Every wrong template, manager, duration or setting fails the deployment, naming class, method and value. */
class DeploymentValidationTest {

    private static final String[] NO_CONFIG = {};

    @ApplicationScoped
    public static class UnknownParameter {
        @Synchronized("order:{orderId}")
        public void pay(long id) {}
    }

    @ApplicationScoped
    public static class IndexOutOfRange {
        @Synchronized("order:{3}")
        public void pay(long id) {}
    }

    public record Order(String id) {}

    @ApplicationScoped
    public static class UnknownProperty {
        @Synchronized("order:{order.number}")
        public void pay(Order order) {}
    }

    @ApplicationScoped
    public static class Unclosed {
        @Synchronized("order:{id")
        public void pay(long id) {}
    }

    public static class Keys implements LockKeyResolver {
        @Override
        public String resolveKey(Method method, Object[] arguments) {
            return "k";
        }
    }

    @ApplicationScoped
    public static class TemplateAndResolver {
        @Synchronized(value = "order:{id}", resolver = Keys.class)
        public void pay(long id) {}
    }

    @ApplicationScoped
    public static class MissingResolverBean {
        @Synchronized(resolver = Keys.class)
        public void pay(long id) {}
    }

    @ApplicationScoped
    public static class UnknownManager {
        @Synchronized(value = "x", manager = "reports")
        public void pay() {}
    }

    @ApplicationScoped
    public static class BadDuration {
        @Synchronized(value = "x", ttl = "forever")
        public void pay() {}
    }

    @ApplicationScoped
    public static class ZeroTimeout {
        @Synchronized(value = "x", timeout = "0s")
        public void pay() {}
    }

    @Dependent
    public static class StaticMethod {
        @Synchronized("x")
        public static void pay() {}
    }

    @ApplicationScoped
    public static class Fine {
        @Synchronized("fine:{id}")
        public void pay(long id) {}
    }

    @Test
    void aPlaceholderNamingNoParameter() {
        assertDeploymentFails(NO_CONFIG, UnknownParameter.class)
                .hasStackTraceContaining("@Synchronized on " + UnknownParameter.class.getName() + ".pay()")
                .hasStackTraceContaining("no parameter named 'orderId'");
    }

    @Test
    void aPositionPastTheParameters() {
        assertDeploymentFails(NO_CONFIG, IndexOutOfRange.class)
                .hasStackTraceContaining(IndexOutOfRange.class.getName() + ".pay()")
                .hasStackTraceContaining("no parameter 3");
    }

    @Test
    void aPathThatNamesNoProperty() {
        assertDeploymentFails(NO_CONFIG, UnknownProperty.class)
                .hasStackTraceContaining(UnknownProperty.class.getName() + ".pay()")
                .hasStackTraceContaining("{order.number}")
                .hasStackTraceContaining("named 'number'");
    }

    @Test
    void anUnclosedBrace() {
        assertDeploymentFails(NO_CONFIG, Unclosed.class).hasStackTraceContaining("unclosed '{'");
    }

    @Test
    void aTemplateAndAResolverTogether() {
        assertDeploymentFails(NO_CONFIG, TemplateAndResolver.class, Keys.class)
                .hasStackTraceContaining("both a key template ('order:{id}') and a resolver");
    }

    @Test
    void aResolverThatIsNoBean() {
        assertDeploymentFails(NO_CONFIG, MissingResolverBean.class)
                .hasStackTraceContaining("key resolver " + Keys.class.getName() + ", but there is no such CDI bean");
    }

    @Test
    void anUndeclaredManager() {
        assertDeploymentFails(NO_CONFIG, UnknownManager.class)
                .hasStackTraceContaining(UnknownManager.class.getName() + ".pay()")
                .hasStackTraceContaining("manager 'reports' is not declared");
    }

    @Test
    void anAnnotatedDurationThatIsNoDuration() {
        assertDeploymentFails(NO_CONFIG, BadDuration.class)
                .hasStackTraceContaining(BadDuration.class.getName() + ".pay()")
                .hasStackTraceContaining("'forever'");
        assertDeploymentFails(NO_CONFIG, ZeroTimeout.class).hasStackTraceContaining("must be at least 1 ms");
    }

    @Test
    void aStaticMethod() {
        assertDeploymentFails(NO_CONFIG, StaticMethod.class).hasStackTraceContaining("cannot be intercepted");
    }

    @Test
    void anUnknownStore() {
        assertDeploymentFails(new String[] {"baton.store=cassandra"}, Fine.class)
                .hasStackTraceContaining("baton.store: unknown store 'cassandra'")
                .hasStackTraceContaining("available: file, memory");
    }

    @Test
    void aNegativeTtlInTheConfiguration() {
        assertDeploymentFails(new String[] {"baton.ttl=-30s"}, Fine.class)
                .hasStackTraceContaining("baton.ttl")
                .hasStackTraceContaining("'-30s'");
    }

    @Test
    void aBadOverrideInTheConfiguration() {
        assertDeploymentFails(new String[] {Fine.class.getName() + "/pay/Synchronized/value=fine:{nope}"}, Fine.class)
                .hasStackTraceContaining(Fine.class.getName() + ".pay()")
                .hasStackTraceContaining("no parameter named 'nope'");
    }
}
