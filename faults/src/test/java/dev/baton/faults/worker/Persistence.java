package dev.baton.faults.worker;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;

/**
 * The application's {@link EntityManagerFactory}, as a user of {@code baton.store=jpa} provides it: the
 * store takes its locks through it, and the worker's own transactions use it too.
 */
@ApplicationScoped
public class Persistence {

    // @ApplicationScoped, as applications declare it: the store gets Weld's client proxy and finds the provider
    // behind it (JpaProvider.own), which the advisory mode needs for its connections.
    @Produces
    @ApplicationScoped
    EntityManagerFactory entityManagerFactory() {
        WorkerSettings settings = Worker.settings();
        return jakarta.persistence.Persistence.createEntityManagerFactory(
                "faults",
                Map.of(
                        "jakarta.persistence.jdbc.url",
                        settings.jdbcUrl(),
                        "jakarta.persistence.jdbc.driver",
                        switch (settings.database()) {
                            case POSTGRESQL -> "org.postgresql.Driver";
                            case MARIADB -> "org.mariadb.jdbc.Driver";
                            case H2 -> "org.h2.Driver";
                        }));
    }

    void close(@Disposes EntityManagerFactory factory) {
        factory.close();
    }
}
