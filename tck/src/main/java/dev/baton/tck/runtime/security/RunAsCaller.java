package dev.baton.tck.runtime.security;

import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RunAs;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;

/**
 * A stateless session bean that calls {@link GuardedBean} in the role it needs ({@code @RunAs}). Anyone may call it
 * ({@code @PermitAll}): {@code @RunAs} makes the bean a secured one, and WildFly denies a secured bean's methods
 * that carry no permission of their own.
 */
@Stateless
@DeclareRoles(GuardedBean.ROLE)
@RunAs(GuardedBean.ROLE)
@PermitAll
public class RunAsCaller {

    @EJB
    GuardedBean guarded;

    /** @return what {@link GuardedBean#work()} answered */
    public String call() {
        return guarded.work();
    }
}
