package dev.baton.jpa.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/** Proxies of JDBC interfaces that watch or change what a real driver answers, for tests of the store's JDBC. */
public final class JdbcProxies {

    private JdbcProxies() {}

    /** What a proxy returns for a call that its target answered with {@code result}. */
    @FunctionalInterface
    public interface Answer {
        Object of(Method method, Object[] args, Object result) throws Throwable;
    }

    /**
     * @param type the interface
     * @param target the real object every call goes to first
     * @param answer what the proxy returns, from the target's answer
     * @return the proxy
     */
    public static <T> T proxy(Class<T> type, T target, Answer answer) {
        return type.cast(Proxy.newProxyInstance(
                JdbcProxies.class.getClassLoader(),
                new Class<?>[] {type},
                (proxy, method, args) -> answer.of(method, args, invoke(target, method, args))));
    }

    /** Calls {@code method} on {@code target}, throwing what it threw. */
    public static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
