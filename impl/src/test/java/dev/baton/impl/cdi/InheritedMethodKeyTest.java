package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.plan.MethodPlan;
import dev.baton.impl.testing.BatonTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * A {@code @Synchronized} method declared once, in an abstract superclass, and inherited by two beans: as the
 * README says of default keys, each bean's method is named by the bean's class ({@code Invoices.work},
 * {@code Receipts.work}), so the two beans have two plans and two locks, never one shared by accident. Plans are
 * keyed by the intercepted bean's class, as SmallRye Fault Tolerance keys its operations.
 */
@BatonTest
@AddBeanClasses({InheritedMethodKeyTest.Invoices.class, InheritedMethodKeyTest.Receipts.class})
class InheritedMethodKeyTest {

    public abstract static class Worker {
        @Inject
        Locks locks;

        /** Set by the test: a call of {@link Invoices} holds its lock until {@link #proceed} opens. */
        static volatile CountDownLatch entered;

        static volatile CountDownLatch proceed;

        @Synchronized(timeout = "200ms")
        public String work() throws InterruptedException {
            CountDownLatch in = entered;
            if (in != null && this instanceof Invoices) {
                in.countDown();
                proceed.await(10, TimeUnit.SECONDS);
            }
            return locks.current().map(Lock::key).orElse("<none>");
        }
    }

    @ApplicationScoped
    public static class Invoices extends Worker {}

    @ApplicationScoped
    public static class Receipts extends Worker {}

    /** Not a bean of this deployment: its plan is built at its first call, as for a bean the extension did not see. */
    public static class Unseen extends Worker {}

    @Inject
    Invoices invoices;

    @Inject
    Receipts receipts;

    @Test
    void eachBeanGetsTheDefaultKeyOfItsOwnClass() throws Exception {
        assertThat(invoices.work()).isEqualTo(Invoices.class.getName() + ".work");
        assertThat(receipts.work()).isEqualTo(Receipts.class.getName() + ".work");
    }

    @Test
    void theDeploymentPlannedEachBeanUnderItsOwnClass() throws Exception {
        LockRuntime runtime = CDI.current().select(LockRuntime.class).get();
        var method = Worker.class.getMethod("work");
        MethodPlan ofInvoices = runtime.plan(Invoices.class, method);
        MethodPlan ofReceipts = runtime.plan(Receipts.class, method);
        assertThat(ofInvoices).isNotSameAs(ofReceipts);
        assertThat(ofInvoices.description()).isEqualTo(Invoices.class.getName() + ".work()");
        assertThat(ofReceipts.description()).isEqualTo(Receipts.class.getName() + ".work()");
        // A container that does not tell the bean: the declaring class, planned once, then looked up.
        MethodPlan ofDeclaring = runtime.plan(Worker.class, method);
        assertThat(ofDeclaring.keys().key(method, new Object[0])).isEqualTo(Worker.class.getName() + ".work");
        assertThat(runtime.plan(Worker.class, method)).isSameAs(ofDeclaring);
    }

    @Test
    void aPlanBuiltAtTheFirstCallUsesTheBeanClassForTheDefaultKeyToo() throws Exception {
        LockRuntime runtime = CDI.current().select(LockRuntime.class).get();
        var method = Worker.class.getMethod("work");
        // The key a deployed bean of this class would get, not the superclass's shared by every such bean.
        assertThat(runtime.plan(Unseen.class, method).keys().key(method, new Object[0]))
                .isEqualTo(Unseen.class.getName() + ".work");
    }

    @Test
    void oneBeanHoldingItsLockDoesNotBlockTheOther() throws Exception {
        Worker.entered = new CountDownLatch(1);
        Worker.proceed = new CountDownLatch(1);
        CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> {
            try {
                return invoices.work();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(Worker.entered.await(10, TimeUnit.SECONDS)).isTrue();
            Worker.entered = null;
            // Within the 200 ms timeout: a shared lock would fail this call with LockTimeoutException.
            assertThat(receipts.work()).isEqualTo(Receipts.class.getName() + ".work");
        } finally {
            Worker.proceed.countDown();
        }
        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(Invoices.class.getName() + ".work");
    }

    @Test
    void thePlanClassIsTheBeansUnlessTheBeanIsNotTheMethodsOwn() throws Exception {
        var beans = CDI.current().getBeanManager();
        var method = Worker.class.getMethod("work");
        var invoicesBean = beans.resolve(beans.getBeans(Invoices.class));
        assertThat(DeploymentPlans.beanClass(invoicesBean, method)).isEqualTo(Invoices.class);
        // No bean told (some containers), or a bean whose class does not have the method (a producer's):
        assertThat(DeploymentPlans.beanClass(null, method)).isEqualTo(Worker.class);
        var unrelated = beans.resolve(beans.getBeans(LockRuntime.class));
        assertThat(DeploymentPlans.beanClass(unrelated, method)).isEqualTo(Worker.class);
    }
}
