package dev.baton.impl.cdi;

import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.runtime.OptionalApis;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Who may call {@code Locks.forceRelease}: with {@code baton.admin.force-release.role} set, a caller in one of its
 * roles, as the container's security says. Asked first of Jakarta Security's {@code SecurityContext} (a bean in
 * every Jakarta EE 10+ server), else of the {@code EJBContext} of an enterprise bean's call. Where neither can tell
 * (Java SE, a MicroProfile runtime without Jakarta Security, a thread of the application's own), a configured role
 * refuses every call: an operator who set one meant the check to be made. Both APIs are optional, loaded only where
 * present.
 */
final class ForceReleaseRoles {

    private static final String SECURITY_CONTEXT = "jakarta.security.enterprise.SecurityContext";
    private static final String EJB_CONTEXT = "jakarta.ejb.EJBContext";

    private final List<String> roles;
    private final BeanManager beanManager;
    private final boolean securityApi;
    private final boolean ejbApi;

    /**
     * @param roles the configured roles; empty when any caller may
     * @param beanManager where {@code SecurityContext} is looked up
     */
    ForceReleaseRoles(List<String> roles, BeanManager beanManager) {
        this.roles = roles;
        this.beanManager = beanManager;
        ClassLoader loader = ForceReleaseRoles.class.getClassLoader();
        this.securityApi = OptionalApis.present(SECURITY_CONTEXT, loader);
        this.ejbApi = OptionalApis.present(EJB_CONTEXT, loader);
    }

    /**
     * Checks the caller, on its own thread.
     *
     * @return the role it was allowed by, for the audit line; empty when no role is configured
     * @throws SecurityException when the caller is in none of the roles
     * @throws LockConfigurationException when roles are configured and nothing here can tell the caller's
     */
    Optional<String> check() {
        if (roles.isEmpty()) {
            return Optional.empty();
        }
        Optional<Caller> caller = securityApi ? SecurityApi.caller(beanManager) : Optional.empty();
        if (caller.isEmpty() && ejbApi) {
            caller = EjbApi.caller();
        }
        if (caller.isEmpty()) {
            throw new LockConfigurationException("Locks.forceRelease is refused: " + BatonConfig.FORCE_RELEASE_ROLE
                    + " allows it to callers in role " + String.join(" or ", roles)
                    + ", and no security context here can tell the caller's roles (neither Jakarta Security's"
                    + " SecurityContext nor an enterprise bean's EJBContext)");
        }
        for (String role : roles) {
            if (caller.get().inRole().test(role)) {
                return Optional.of(role);
            }
        }
        throw new SecurityException("Locks.forceRelease is allowed only to callers in role "
                + String.join(" or ", roles) + " (" + BatonConfig.FORCE_RELEASE_ROLE + "); "
                + caller.get().describe() + " is in none of them");
    }

    /**
     * A caller as one security API sees it.
     *
     * @param inRole whether the caller is in a role
     * @param principal who it is, for the refusal's message
     */
    private record Caller(Predicate<String> inRole, java.security.Principal principal) {
        String describe() {
            return principal == null ? "the unauthenticated caller" : "principal '" + principal.getName() + "'";
        }
    }

    /** Jakarta Security, in a class of its own: loaded only where the API is present. */
    private static final class SecurityApi {
        static Optional<Caller> caller(BeanManager beanManager) {
            Instance<jakarta.security.enterprise.SecurityContext> contexts =
                    beanManager.createInstance().select(jakarta.security.enterprise.SecurityContext.class);
            if (!contexts.isResolvable()) {
                return Optional.empty();
            }
            jakarta.security.enterprise.SecurityContext context = contexts.get();
            return Optional.of(new Caller(context::isCallerInRole, context.getCallerPrincipal()));
        }
    }

    /** The EJB context of an enterprise bean's call, in a class of its own: loaded only where the API is present. */
    private static final class EjbApi {
        static Optional<Caller> caller() {
            jakarta.ejb.EJBContext context;
            java.security.Principal principal;
            try {
                context = (jakarta.ejb.EJBContext) new InitialContext().lookup("java:comp/EJBContext");
                // outside a business method a server may hand out the context but refuse its questions
                principal = context.getCallerPrincipal();
            } catch (NamingException | ClassCastException | IllegalStateException e) {
                return Optional.empty(); // not inside an enterprise bean's call, or no naming at all (Java SE)
            }
            return Optional.of(new Caller(context::isCallerInRole, principal));
        }
    }
}
