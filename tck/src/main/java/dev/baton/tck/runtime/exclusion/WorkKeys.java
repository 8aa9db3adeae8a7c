package dev.baton.tck.runtime.exclusion;

import dev.baton.LockKeyResolver;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Method;

/** A key resolver bean of the application: {@code resolved:<first argument>}. */
@ApplicationScoped
public class WorkKeys implements LockKeyResolver {

    @Override
    public String resolveKey(Method method, Object[] arguments) {
        return "resolved:" + arguments[0];
    }
}
