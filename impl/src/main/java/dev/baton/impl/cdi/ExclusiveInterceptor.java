package dev.baton.impl.cdi;

import dev.baton.Exclusive;
import dev.baton.impl.schedule.ScheduledFiring;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.Serializable;

/**
 * Runs {@link Exclusive} methods once per planned time across the instances (see {@link ScheduledFiring}).
 * {@code @AroundTimeout} for EJB timers, whose {@code getTimer()} tells the next firing; {@code @AroundInvoke}
 * for every other scheduler. Thin: the plan was built at deployment.
 */
@Exclusive
@Interceptor
@Priority(Exclusive.DEFAULT_PRIORITY)
public class ExclusiveInterceptor implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The lock runtime: plans, engines, events. */
    @Inject
    LockRuntime runtime;

    /** The bean whose method runs: its class keys the method's plan (a method two beans inherit has two). */
    @Inject
    @Intercepted
    Bean<?> bean;

    @AroundInvoke
    Object invoke(InvocationContext context) throws Exception {
        return fire(context);
    }

    @AroundTimeout
    Object timeout(InvocationContext context) throws Exception {
        return fire(context);
    }

    private Object fire(InvocationContext context) throws Exception {
        return ScheduledFiring.fire(
                runtime.schedulePlan(DeploymentPlans.beanClass(bean, context.getMethod()), context.getMethod()),
                context.getTimer(),
                runtime::scheduleEngine,
                runtime::scheduleSkipped,
                runtime.config().logKeys(),
                context::proceed);
    }
}
