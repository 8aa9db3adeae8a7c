package dev.baton.tck.runtime.health;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** {@code POST /api/store/down} and {@code POST /api/store/up}: the {@link SwitchableStore}'s switch. */
@Path("store")
@RequestScoped
public class StoreSwitchResource {

    @Inject
    SwitchableStore store;

    @POST
    @Path("{state}")
    public String set(@PathParam("state") String state) {
        if (!state.equals("up") && !state.equals("down")) {
            throw new jakarta.ws.rs.NotFoundException("up or down, not " + state);
        }
        store.unreachable(state.equals("down"));
        return state;
    }
}
