package dev.baton;

import java.lang.reflect.Method;

/**
 * Computes the lock key of a {@link Synchronized} invocation when a template is not enough. Implement
 * it as a CDI bean (for example {@code @ApplicationScoped}) and name its class in
 * {@link Synchronized#resolver()}. The bean must exist when the application deploys.
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class TenantKeys implements LockKeyResolver {
 *     @Inject Tenant tenant;
 *     public String resolveKey(Method method, Object[] arguments) {
 *         return "tenant:" + tenant.id() + ":" + method.getName();
 *     }
 * }
 * }</pre>
 */
@FunctionalInterface
public interface LockKeyResolver {

    /**
     * Returns the key for this invocation.
     *
     * @param method the business method being invoked
     * @param arguments its arguments (do not modify)
     * @return the key: not null, 1 to 500 characters once the manager's prefix is applied
     */
    String resolveKey(Method method, Object[] arguments);
}
