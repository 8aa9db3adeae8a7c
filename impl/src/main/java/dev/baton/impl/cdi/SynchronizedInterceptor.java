package dev.baton.impl.cdi;

import dev.baton.Synchronized;
import dev.baton.impl.engine.CurrentLocks;
import dev.baton.impl.engine.HeldLock;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;
import java.util.concurrent.CompletionStage;

/**
 * Runs {@link Synchronized} methods under their lock. Thin on purpose: it looks up the method's plan
 * (built at deployment), asks the engine for the lock, and releases it when the method returns, when
 * its {@link CompletionStage} completes, or after its JTA transaction completes.
 */
@Synchronized
@Interceptor
@Priority(Synchronized.DEFAULT_PRIORITY)
public class SynchronizedInterceptor implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The lock runtime: plans, engines, transactions. */
    @Inject
    LockRuntime runtime;

    /** The bean whose method runs: its class keys the method's plan (a method two beans inherit has two). */
    @Inject
    @Intercepted
    Bean<?> bean;

    @AroundInvoke
    Object synchronize(InvocationContext context) throws Exception {
        MethodPlan plan = runtime.plan(DeploymentPlans.beanClass(bean, context.getMethod()), context.getMethod());
        String key = plan.keys().key(context.getMethod(), context.getParameters());
        HeldLock lock = runtime.engine(plan.manager())
                .acquire(key, plan.ttlMillis(), plan.timeoutMillis(), plan.await(), plan.poll());
        boolean handedOver = false;
        // Until the transaction support has answered, a failure releases at once.
        Runnable release = lock::close;
        CurrentLocks.push(lock);
        try {
            release = runtime.transactions().releaseAfterCompletion(lock);
            Object result = context.proceed();
            if (plan.async() && result instanceof CompletionStage<?> stage) {
                lock.unbindThread();
                // Released when the stage completes, and in a transaction not before it completes either.
                Runnable releaseWhenDone = release;
                stage.whenComplete((value, failure) -> releaseWhenDone.run());
                handedOver = true;
            }
            return result;
        } finally {
            CurrentLocks.pop(lock);
            // A lock deferred to the end of the transaction stays bound to this thread: calling the same key
            // again in the same transaction fails fast instead of waiting for itself. It is released when
            // both the method has returned and the transaction has completed.
            if (!handedOver) {
                release.run();
            }
        }
    }
}
