package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.BatonTest;
import dev.baton.tck.Together;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * The interceptor keeps what a method's invocations need (plan, engine, transaction support) after the first
 * call: kept per interceptor, i.e. per bean, and per method, so two beans inheriting one method still each use
 * their own plan, and a bean's methods called in turn, from many threads at once, each keep their own key.
 */
@BatonTest
@AddBeanClasses({BoundMethodsTest.Invoices.class, BoundMethodsTest.Receipts.class})
class BoundMethodsTest {

    public abstract static class Worker {
        @Inject
        Locks locks;

        @Synchronized
        public String work() {
            return current();
        }

        @Synchronized("fixed:a")
        public String a() {
            return current();
        }

        @Synchronized("fixed:b")
        public String b() {
            return current();
        }

        private String current() {
            return locks.current().map(Lock::key).orElse("<none>");
        }
    }

    @ApplicationScoped
    public static class Invoices extends Worker {}

    @ApplicationScoped
    public static class Receipts extends Worker {}

    @Inject
    Invoices invoices;

    @Inject
    Receipts receipts;

    @Test
    void callsInTurnFromManyThreadsEachKeepTheirMethodsKeyAndTheirBeansPlan() throws Exception {
        List<List<String>> seen = Together.call(4, thread -> {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                keys.add(invoices.work());
                keys.add(receipts.work());
                keys.add(invoices.a());
                keys.add(receipts.b());
            }
            return keys;
        });
        for (List<String> keys : seen) {
            for (int i = 0; i < keys.size(); i += 4) {
                assertThat(keys.subList(i, i + 4))
                        .containsExactly(
                                Invoices.class.getName() + ".work",
                                Receipts.class.getName() + ".work",
                                "fixed:a",
                                "fixed:b");
            }
        }
    }

    @Test
    void anInterceptorLooksAMethodUpOnceAndEachBeanHasItsOwn() throws Exception {
        LockRuntime runtime = CDI.current().select(LockRuntime.class).get();
        var beans = CDI.current().getBeanManager();
        var method = Worker.class.getMethod("work");
        SynchronizedInterceptor ofInvoices = interceptor(runtime, beans.resolve(beans.getBeans(Invoices.class)));
        SynchronizedInterceptor ofReceipts = interceptor(runtime, beans.resolve(beans.getBeans(Receipts.class)));

        SynchronizedInterceptor.Bound first = ofInvoices.bound(method);
        assertThat(ofInvoices.bound(method)).as("kept").isSameAs(first);
        assertThat(first.plan()).isSameAs(runtime.plan(Invoices.class, method));
        assertThat(first.engine()).isSameAs(runtime.engine(first.plan().manager()));
        assertThat(ofReceipts.bound(method).plan())
                .as("the other bean's own plan")
                .isSameAs(runtime.plan(Receipts.class, method))
                .isNotSameAs(first.plan());
        assertThat(ofInvoices.bound(Worker.class.getMethod("a")).plan().description())
                .isEqualTo(Invoices.class.getName() + ".a()");
        assertThat(ofInvoices.bound(method))
                .as("still kept beside another method")
                .isSameAs(first);
    }

    private static SynchronizedInterceptor interceptor(
            LockRuntime runtime, jakarta.enterprise.inject.spi.Bean<?> bean) {
        SynchronizedInterceptor interceptor = new SynchronizedInterceptor();
        interceptor.runtime = runtime;
        interceptor.bean = bean;
        return interceptor;
    }
}
