package dev.baton.faults.worker;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;

/**
 * The application's {@link EntityManagerFactory}, as a user of {@code baton.store=jpa} provides it: the
 * store takes its locks through it, and the worker's own transactions use it too.
 */
@ApplicationScoped
public class Persistence {

    // @Singleton, not @ApplicationScoped: the advisory mode takes its connections from the provider behind the
    // bean and refuses a CDI client proxy ("The advisory mode of the JPA lock store needs Hibernate ORM or
    // EclipseLink ...; the provider is ...EntityManagerFactory$...$Proxy$_$$_WeldClientProxy"), which a
    // normal-scoped producer gives. Reported (issue 33); with @ApplicationScoped here the advisory runs fail.
    @Produces
    @Singleton
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
