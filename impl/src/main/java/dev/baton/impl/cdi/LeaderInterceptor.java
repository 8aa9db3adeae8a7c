package dev.baton.impl.cdi;

import dev.baton.Leader;
import dev.baton.impl.leadership.LeaderCall;
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
 * Runs {@link Leader} methods in the instance that leads their election only (see {@link LeaderCall}).
 * {@code @AroundTimeout} for EJB timers, {@code @AroundInvoke} for every other caller. Thin: the plan was
 * built at deployment and the election joined at start.
 */
@Leader
@Interceptor
@Priority(Leader.DEFAULT_PRIORITY)
public class LeaderInterceptor implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The lock runtime: plans, elections, transactions. */
    @Inject
    LockRuntime runtime;

    /** The bean whose method runs: its class keys the method's plan. */
    @Inject
    @Intercepted
    Bean<?> bean;

    @AroundInvoke
    Object invoke(InvocationContext context) throws Exception {
        return call(context);
    }

    @AroundTimeout
    Object timeout(InvocationContext context) throws Exception {
        return call(context);
    }

    private Object call(InvocationContext context) throws Exception {
        return LeaderCall.call(
                runtime.leaderPlan(DeploymentPlans.beanClass(bean, context.getMethod()), context.getMethod()),
                runtime::candidacy,
                runtime.transactions(),
                runtime.config().logKeys(),
                context::proceed);
    }
}
