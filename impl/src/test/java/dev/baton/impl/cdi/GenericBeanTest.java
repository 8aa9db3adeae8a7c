package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.plan.MethodPlan;
import dev.baton.impl.testing.BatonTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * A bean that implements a generic interface: the compiler adds a bridge method {@code handle(Object)}
 * (with the annotation copied, without parameter names). Deploying and calling it through the
 * interface must work with the template of the real method.
 */
@BatonTest
@AddBeanClasses({GenericBeanTest.OrderHandler.class, GenericBeanTest.Inventory.class})
class GenericBeanTest {

    public interface Handler<T> {
        String handle(T item);
    }

    public record Order(String id) {}

    @ApplicationScoped
    public static class OrderHandler implements Handler<Order> {
        @Inject
        Locks locks;

        @Override
        @Synchronized("order:{item.id}")
        public String handle(Order item) {
            return locks.current().map(Lock::key).orElse("<none>");
        }
    }

    public abstract static class Repository<T> {
        @Inject
        Locks locks;

        public abstract String save(T entity);
    }

    @ApplicationScoped
    @Synchronized("inventory")
    public static class Inventory extends Repository<Order> {
        @Override
        public String save(Order entity) {
            return locks.current().map(Lock::key).orElse("<none>");
        }
    }

    @Inject
    Handler<Order> handler;

    @Inject
    OrderHandler orderHandler;

    @Inject
    Repository<Order> repository;

    @Test
    void aContainerThatReportsTheBridgeMethodGetsTheRealMethodsPlan() throws Exception {
        // Weld reports the real method to interceptors; a container may report the bridge that was called.
        Method bridge = OrderHandler.class.getDeclaredMethod("handle", Object.class);
        assertThat(bridge.isBridge()).isTrue();
        LockRuntime runtime = jakarta.enterprise
                .inject
                .spi
                .CDI
                .current()
                .select(LockRuntime.class)
                .get();
        MethodPlan plan = runtime.plan(OrderHandler.class, bridge);
        assertThat(plan.keys().key(bridge, new Object[] {new Order("o-9")})).isEqualTo("order:o-9");
    }

    @Test
    void theBridgeMethodUsesTheRealMethodsTemplate() {
        assertThat(handler.handle(new Order("o-1"))).isEqualTo("order:o-1");
        assertThat(orderHandler.handle(new Order("o-2"))).isEqualTo("order:o-2");
        assertThat(repository.save(new Order("o-3"))).isEqualTo("inventory");
    }
}
