package dev.baton.jpa.internal;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

/**
 * The JPA provider of an entity manager factory, for the store's provider-specific paths (connections of the
 * persistence unit's pool, sessions that hold their connection, EclipseLink's session listener): the one place
 * that tells them apart.
 *
 * <p>Told from the provider's own factory ({@link #own}): the factory the store is given may wrap it, above all
 * as the client proxy CDI hands for a normal-scoped ({@code @ApplicationScoped}) producer, whose class says
 * nothing of the provider. {@code unwrap} does not reach past such a proxy: Weld hands back the proxy for a
 * call that returns the instance itself, as {@code unwrap(EntityManagerFactory.class)} and {@code
 * unwrap(SessionFactory.class)} do (and EclipseLink refuses the first).
 */
public enum JpaProvider {
    /** Hibernate ORM. */
    HIBERNATE,
    /** EclipseLink. */
    ECLIPSELINK,
    /** Any other provider: the store uses only portable JPA with it. */
    OTHER;

    /**
     * This provider's way to connections of the persistence unit's pool.
     *
     * @param factory the provider's own factory, named in the failure
     * @return the provider's connections
     * @throws IllegalStateException if the provider is neither Hibernate ORM nor EclipseLink
     */
    ProviderJdbc jdbc(EntityManagerFactory factory) {
        return switch (this) {
            case ECLIPSELINK -> EclipseLinkJdbc::lend;
            case HIBERNATE -> HibernateJdbc::lend;
            case OTHER ->
                throw new IllegalStateException("The advisory mode of the JPA lock store needs Hibernate ORM"
                        + " or EclipseLink to hand it connections of the persistence unit; the provider is "
                        + factory.getClass().getName());
        };
    }

    private static final String HIBERNATE_SESSION_FACTORY = "org.hibernate.SessionFactory";

    /**
     * @param factory the provider's own factory ({@link #own})
     * @return its provider
     */
    public static JpaProvider of(EntityManagerFactory factory) {
        String type = factory.getClass().getName();
        if (type.startsWith("org.hibernate.") || isSessionFactory(factory)) {
            return HIBERNATE; // also a wrapper that implements Hibernate's interface (e.g. Spring's factory proxy)
        }
        return type.startsWith("org.eclipse.persistence.") ? ECLIPSELINK : OTHER;
    }

    /**
     * The provider's own factory behind {@code factory}: {@code factory} itself if its class names a provider,
     * else the factory of an entity manager it creates (and closes at once), which the provider's entity
     * manager gives as its own. To be asked once per factory, not on every operation.
     *
     * @param factory a factory, the provider's own or a wrapper of it (a CDI client proxy)
     * @return the provider's factory
     */
    public static EntityManagerFactory own(EntityManagerFactory factory) {
        if (of(factory) != OTHER) {
            return factory;
        }
        EntityManager em = factory.createEntityManager();
        try {
            EntityManagerFactory own = em.getEntityManagerFactory();
            return own == null ? factory : own;
        } finally {
            em.close();
        }
    }

    private static boolean isSessionFactory(EntityManagerFactory factory) {
        try {
            return Class.forName(HIBERNATE_SESSION_FACTORY, false, JpaProvider.class.getClassLoader())
                    .isInstance(factory);
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
