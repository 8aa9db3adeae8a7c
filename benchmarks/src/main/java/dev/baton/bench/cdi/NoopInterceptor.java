package dev.baton.bench.cdi;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Proceeds and nothing else. */
@Noop
@Interceptor
@Priority(Interceptor.Priority.APPLICATION + 917)
public class NoopInterceptor {

    @AroundInvoke
    public Object proceed(InvocationContext context) throws Exception {
        return context.proceed();
    }
}
