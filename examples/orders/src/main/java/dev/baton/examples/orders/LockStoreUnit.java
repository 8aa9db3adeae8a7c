package dev.baton.examples.orders;

import dev.baton.jpa.ForLocks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;

/**
 * Hands the container's {@code baton-locks} persistence unit to Baton: with {@code baton.store=jpa}
 * and no {@code baton.jpa.persistence-unit}, the store uses the application's
 * {@link EntityManagerFactory} bean marked {@link ForLocks} (Jakarta EE 11 servers make each persistence
 * unit a bean of its own, so the application has several). The unit is {@code RESOURCE_LOCAL} on a
 * non-transactional data source, so each lock statement commits on its own, whatever transaction the
 * caller is in.
 */
@ApplicationScoped
public class LockStoreUnit {

    @Produces
    @ForLocks
    @PersistenceUnit(unitName = "baton-locks")
    EntityManagerFactory locks;
}
