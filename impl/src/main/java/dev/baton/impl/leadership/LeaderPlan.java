package dev.baton.impl.leadership;

import dev.baton.Leader;
import dev.baton.LockConfigurationException;
import java.lang.reflect.Method;

/**
 * What a call of a {@link Leader} method needs, validated at deployment.
 *
 * @param method {@code com.acme.Relay.relay}, for logs
 * @param manager the lock manager's name
 * @param election the election's name
 */
public record LeaderPlan(String method, String manager, String election) {

    /**
     * Validates a {@code @Leader} method and plans it.
     *
     * @param beanClass the bean class (its name is the default election name when the class carries the binding)
     * @param method the method
     * @param annotation its {@code @Leader}, or its class's
     * @return the plan
     * @throws LockConfigurationException if a skipped call could not return (a primitive return type)
     */
    public static LeaderPlan build(Class<?> beanClass, Method method, Leader annotation) {
        String description = beanClass.getName() + "." + method.getName();
        Class<?> returns = method.getReturnType();
        if (returns.isPrimitive() && returns != void.class) {
            throw new LockConfigurationException("@Leader on " + description + "(): it returns " + returns.getName()
                    + ", but a call in an instance that does not lead is skipped and returns null; return "
                    + boxed(returns) + " or void");
        }
        String election = annotation.value().isEmpty() ? declaring(beanClass, method) : annotation.value();
        return new LeaderPlan(description, annotation.manager(), election);
    }

    /** The class whose name is the default election: the one that carries the annotation (the method's, or the bean's). */
    private static String declaring(Class<?> beanClass, Method method) {
        return method.isAnnotationPresent(Leader.class)
                ? method.getDeclaringClass().getName()
                : beanClass.getName();
    }

    private static String boxed(Class<?> primitive) {
        return primitive == int.class
                ? "Integer"
                : primitive == char.class
                        ? "Character"
                        : Character.toUpperCase(primitive.getName().charAt(0))
                                + primitive.getName().substring(1);
    }
}
