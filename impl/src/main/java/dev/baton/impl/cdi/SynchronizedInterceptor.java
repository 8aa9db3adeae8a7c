package dev.baton.impl.cdi;

import dev.baton.Synchronized;
import dev.baton.impl.engine.CallerContext;
import dev.baton.impl.engine.CurrentLocks;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.plan.MethodPlan;
import dev.baton.impl.transaction.TransactionSupport;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs {@link Synchronized} methods under their lock. Thin on purpose: it looks up the method's plan
 * (built at deployment), asks the engine for the lock, and releases it when the method returns, when
 * its {@link CompletionStage} completes, or after its JTA transaction completes. A method that returns a
 * {@code CompletionStage} (or {@code CompletableFuture}) and waits for its lock does not wait on the calling
 * thread: the call returns a stage at once, and the method runs on the Baton thread that gets the lock.
 *
 * <p>An interceptor instance serves one bean (the container makes one per intercepted instance), so what an
 * invocation looks up (the plan, the manager's engine, the transaction support) is kept here per method after
 * the first call: the next one asks nothing of the {@link LockRuntime}, a client proxy.
 */
@Synchronized
@Interceptor
@Priority(Synchronized.DEFAULT_PRIORITY)
public class SynchronizedInterceptor implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The most methods of one bean kept in {@link #bound}; a bean with more looks the others up each time. */
    static final int BOUND_METHODS = 16;

    /** The lock runtime: plans, engines, transactions. */
    @Inject
    LockRuntime runtime;

    /** The bean whose method runs: its class keys the method's plan (a method two beans inherit has two). */
    @Inject
    @Intercepted
    Bean<?> bean;

    /**
     * The methods of this bean called so far, with what their invocations need; replaced, never changed, so
     * threads read it without a lock (a race only looks a method up twice).
     */
    private transient volatile Bound[] bound = new Bound[0];

    /** What the invocations of one method use, looked up at its first call. */
    record Bound(Method method, MethodPlan plan, LockEngine engine, TransactionSupport transactions) {}

    @AroundInvoke
    Object synchronize(InvocationContext context) throws Exception {
        Method method = context.getMethod();
        Bound call = bound(method);
        MethodPlan plan = call.plan();
        String key = plan.keys().key(method, context.getParameters());
        LockEngine engine = call.engine();
        if (plan.await() && returnsPlainStage(method)) {
            // Tried once here; if the key is busy, waited for without this thread, and the method runs on the
            // thread that gets the lock.
            HeldLock now = engine.acquireOrNull(key, plan.ttlMillis(), 0, false, plan.sharedLimit());
            return now != null ? runHolding(call, context, now) : runWhenGranted(call, context, key);
        }
        HeldLock lock = engine.acquire(
                key, plan.ttlMillis(), plan.timeoutMillis(), plan.await(), plan.poll(), plan.sharedLimit());
        return runHolding(call, context, lock);
    }

    /** Whether the method's stage is one this interceptor can hand back itself (a {@link CompletableFuture}). */
    private static boolean returnsPlainStage(Method method) {
        Class<?> type = method.getReturnType();
        return type == CompletionStage.class || type == CompletableFuture.class;
    }

    /**
     * Waits for the lock without a thread and runs the method when it is granted. Cancelling the returned stage
     * before that gives the wait up; after that, the method's own stage decides. The method runs, and the stage is
     * completed, in the caller's server context ({@link LockRuntime#callerContext()}): on a Baton thread, where a JAX-RS runtime
     * writes the asynchronous response as the stage completes.
     */
    private CompletableFuture<Object> runWhenGranted(Bound call, InvocationContext context, String key) {
        MethodPlan plan = call.plan();
        CallerContext.Captured caller = runtime.callerContext().capture();
        CompletableFuture<HeldLock> waiting = call.engine()
                .acquireAsync(key, plan.ttlMillis(), plan.timeoutMillis(), true, plan.poll(), plan.sharedLimit());
        CompletableFuture<Object> result = new CompletableFuture<>();
        waiting.whenComplete((lock, failure) -> caller.run(() -> granted(call, context, lock, failure, result)));
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                waiting.cancel(false);
            }
        });
        return result;
    }

    /** The end of a wait for {@code lock}: runs the method under it, or fails {@code result} with {@code failure}. */
    private static void granted(
            Bound call, InvocationContext context, HeldLock lock, Throwable failure, CompletableFuture<Object> result) {
        if (failure != null) {
            result.completeExceptionally(failure);
            return;
        }
        if (result.isDone()) {
            lock.close(); // cancelled by the caller as the lock was granted
            return;
        }
        CompletionStage<?> stage;
        try {
            stage = (CompletionStage<?>) runHolding(call, context, lock);
        } catch (Exception | Error e) {
            result.completeExceptionally(e);
            return;
        }
        if (stage == null) {
            result.complete(null);
            return;
        }
        stage.whenComplete((value, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(value);
            }
        });
    }

    /** Runs the method under {@code lock}, which it releases when the method (or its stage) is done. */
    private static Object runHolding(Bound call, InvocationContext context, HeldLock lock) throws Exception {
        MethodPlan plan = call.plan();
        boolean handedOver = false;
        // Null: released at once (no transaction, or the transaction support has not answered: a failure).
        Runnable release = null;
        CurrentLocks.push(lock);
        try {
            release = call.transactions().releaseAfterCompletion(lock);
            Object result = context.proceed();
            if (plan.async() && result instanceof CompletionStage<?> stage) {
                lock.unbindThread();
                // Released when the stage completes, and in a transaction not before it completes either.
                Runnable releaseWhenDone = release;
                stage.whenComplete((value, failure) -> release(lock, releaseWhenDone));
                handedOver = true;
            }
            return result;
        } finally {
            CurrentLocks.pop(lock);
            // A lock deferred to the end of the transaction stays bound to this thread: calling the same key
            // again in the same transaction fails fast instead of waiting for itself. It is released when
            // both the method has returned and the transaction has completed.
            if (!handedOver) {
                release(lock, release);
            }
        }
    }

    private static void release(HeldLock lock, Runnable afterCompletion) {
        if (afterCompletion == null) {
            lock.close();
        } else {
            afterCompletion.run();
        }
    }

    /** What an invocation of {@code method} needs: kept from an earlier call, or looked up (and kept) now. */
    Bound bound(Method method) {
        Bound[] known = bound;
        if (known == null) {
            known = new Bound[0]; // deserialized
        }
        for (Bound b : known) {
            if (b.method() == method || b.method().equals(method)) {
                return b;
            }
        }
        MethodPlan plan = runtime.plan(DeploymentPlans.beanClass(bean, method), method);
        Bound found = new Bound(method, plan, runtime.engine(plan.manager()), runtime.transactions());
        if (known.length < BOUND_METHODS) {
            Bound[] more = Arrays.copyOf(known, known.length + 1);
            more[known.length] = found;
            bound = more;
        }
        return found;
    }
}
