package dev.baton.impl.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.SecurityContext;
import jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import java.util.Set;

/** Jakarta Security's {@link SecurityContext} as a server gives it, for a caller the test sets. */
@ApplicationScoped
public class TestSecurityContext implements SecurityContext {

    private volatile String name;
    private volatile Set<String> roles = Set.of();

    /**
     * @param name the caller's principal name
     * @param roles its roles
     */
    public void caller(String name, String... roles) {
        this.name = name;
        this.roles = Set.of(roles);
    }

    @Override
    public Principal getCallerPrincipal() {
        String caller = name;
        return caller == null ? null : () -> caller;
    }

    @Override
    public <T extends Principal> Set<T> getPrincipalsByType(Class<T> type) {
        return Set.of();
    }

    @Override
    public boolean isCallerInRole(String role) {
        return roles.contains(role);
    }

    @Override
    public boolean hasAccessToWebResource(String resource, String... methods) {
        return false;
    }

    @Override
    public AuthenticationStatus authenticate(
            HttpServletRequest request, HttpServletResponse response, AuthenticationParameters parameters) {
        throw new UnsupportedOperationException("not a web request");
    }
}
