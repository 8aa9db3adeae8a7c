package dev.baton.impl.plan;

import java.lang.reflect.Method;

/** Finds the method a compiler-made bridge calls. */
public final class BridgeMethods {

    private BridgeMethods() {}

    /**
     * A bridge (a generic interface or superclass implemented) has erased parameter types and no parameter
     * names; the plan is the real method's, which a container may report instead.
     *
     * @param method a method, bridge or not
     * @return the method the bridge calls, or {@code method} itself when it is no bridge (or none is found)
     */
    public static Method unbridged(Method method) {
        if (!method.isBridge()) {
            return method;
        }
        for (Method candidate : method.getDeclaringClass().getDeclaredMethods()) {
            if (!candidate.isBridge()
                    && candidate.getName().equals(method.getName())
                    && candidate.getParameterCount() == method.getParameterCount()
                    && method.getReturnType().isAssignableFrom(candidate.getReturnType())
                    && assignable(method.getParameterTypes(), candidate.getParameterTypes())) {
                return candidate;
            }
        }
        return method;
    }

    private static boolean assignable(Class<?>[] to, Class<?>[] from) {
        for (int i = 0; i < to.length; i++) {
            if (!to[i].isAssignableFrom(from[i])) {
                return false;
            }
        }
        return true;
    }
}
