package dev.baton.jpa;

import jakarta.inject.Qualifier;
import java.lang.annotation.Annotation;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@code EntityManagerFactory} bean the JPA lock store uses, where the application has more than
 * one. Jakarta EE 11 servers (Jakarta Persistence 3.2) make every persistence unit an
 * {@code EntityManagerFactory} bean of their own, so an application with its own unit and the lock
 * store's has several {@code @Default} ones:
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class LockStoreUnit {
 *     @Produces @ForLocks
 *     @PersistenceUnit(unitName = "baton-locks")
 *     EntityManagerFactory locks;
 * }
 * }</pre>
 *
 * With {@code baton.store=jpa} and no {@code baton.jpa.persistence-unit}, the store takes the
 * {@code @ForLocks} bean when there is one, else the only {@code @Default} one; several {@code @Default}
 * ones and no {@code @ForLocks} fail the deployment, naming them.
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface ForLocks {

    /** An instance of the qualifier, for lookups (no CDI class needed to create it). */
    ForLocks INSTANCE = new ForLocks() {
        @Override
        public Class<? extends Annotation> annotationType() {
            return ForLocks.class;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof ForLocks;
        }

        @Override
        public int hashCode() {
            return 0; // no members
        }

        @Override
        public String toString() {
            return "@" + ForLocks.class.getName() + "()";
        }
    };
}
