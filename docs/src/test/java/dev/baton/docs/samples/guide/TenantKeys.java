package dev.baton.docs.samples.guide;

import dev.baton.LockKeyResolver;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.reflect.Method;

// tag::resolver[]
@ApplicationScoped
public class TenantKeys implements LockKeyResolver {

    @Override
    public String resolveKey(Method method, Object[] arguments) {
        return "tenant:" + arguments[0] + ":" + method.getName(); // tenant:acme:nightly
    }
}
// end::resolver[]
