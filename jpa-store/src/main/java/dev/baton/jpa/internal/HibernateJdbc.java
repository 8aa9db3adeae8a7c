package dev.baton.jpa.internal;

import jakarta.persistence.EntityManager;
import org.hibernate.Session;

/** Hibernate ORM's way to the connection; loaded only when Hibernate is the provider. */
final class HibernateJdbc {

    private HibernateJdbc() {
    }

    static <T> T run(EntityManager em, JdbcWork<T> work) {
        // Hibernate turns an SQLException into a JDBCException that keeps it as the cause.
        return em.unwrap(Session.class).doReturningWork(work::run);
    }
}
