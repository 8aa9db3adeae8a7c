package dev.baton.tck.runtime.security;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.annotation.security.DeclareRoles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** A stateless session bean whose locked method only callers in the role {@value #ROLE} may call. */
@Stateless
@DeclareRoles(GuardedBean.ROLE)
public class GuardedBean {

    /** The role the method needs. */
    public static final String ROLE = "baton-tck-operator";

    @Inject
    Locks locks;

    /** @return {@code worked, token=<the lock's fencing token>} */
    @RolesAllowed(ROLE)
    @Synchronized("guarded")
    public String work() {
        return "worked, token=" + locks.current().orElseThrow().fencingToken();
    }
}
