package dev.baton.impl.cdi;

import dev.baton.LockConfigurationException;
import dev.baton.impl.runtime.BeanLookup;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.PassivationCapable;
import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Application beans for stores and integrations. Typesafe resolution first; when that finds nothing,
 * the beans of the types Baton looks up that the extension saw at deployment ({@link NeededBeans}): some containers (Payara) do not let a bean archive of a
 * library jar, like Baton's, resolve beans of the application's {@code WEB-INF/classes}.
 */
final class CdiBeanLookup implements BeanLookup {

    private final BeanManager beanManager;
    private final Collection<Bean<?>> deployed;

    CdiBeanLookup(BeanManager beanManager, Collection<Bean<?>> deployed) {
        this.beanManager = beanManager;
        this.deployed = deployed;
    }

    @Override
    public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
        Set<Bean<?>> beans;
        try {
            beans = beanManager.getBeans(type, qualifiers);
        } catch (IllegalArgumentException e) {
            if (qualifiers.length == 0) {
                throw e;
            }
            // Quarkus (ArC) knows only the qualifiers its index saw on some bean: an annotation no bean
            // carries is "not a registered qualifier" there, and so no bean has it
            return Optional.empty();
        }
        if (beans.isEmpty()) {
            beans = deployedBeans(type, qualifiers);
        }
        if (beans.isEmpty()) {
            return Optional.empty();
        }
        Bean<?> bean;
        try {
            bean = beanManager.resolve(beans);
        } catch (AmbiguousResolutionException e) {
            StringBuilder names = new StringBuilder();
            for (Bean<?> candidate : beans) {
                names.append(names.length() == 0 ? "" : "; ").append(candidate);
            }
            throw new LockConfigurationException(beans.size() + " beans of type " + type.getName()
                    + (qualifiers.length == 0 ? "" : " " + Arrays.toString(qualifiers))
                    + " match, and Baton needs one: "
                    + names);
        }
        if (bean == null) {
            return Optional.empty();
        }
        return Optional.of(type.cast(beanManager.getReference(bean, type, beanManager.createCreationalContext(bean))));
    }

    /**
     * @param type a bean type
     * @return whether any bean of that type exists, visible to Baton's archive or not
     */
    boolean exists(Class<?> type) {
        return !beanManager.getBeans(type).isEmpty() || !deployedBeans(type).isEmpty();
    }

    /**
     * @param type a bean type
     * @return every bean of that type, whatever its qualifiers, visible to Baton's archive or not
     */
    Set<Bean<?>> beansOfType(Class<?> type) {
        // One bean may come as two objects (the container's view and the deployment event's): by id when it has one.
        Map<Object, Bean<?>> beans = new LinkedHashMap<>();
        for (Bean<?> bean : beanManager.getBeans(type, Any.Literal.INSTANCE)) {
            beans.putIfAbsent(identity(bean), bean);
        }
        for (Bean<?> bean : deployed) {
            if (bean.getTypes().contains(type)) {
                beans.putIfAbsent(identity(bean), bean);
            }
        }
        return new LinkedHashSet<>(beans.values());
    }

    private static Object identity(Bean<?> bean) {
        if (bean instanceof PassivationCapable capable && capable.getId() != null) {
            return capable.getId();
        }
        return bean;
    }

    /**
     * @param beans candidates of one type
     * @return the one of them typesafe resolution picks (enabled alternatives win), or null when they are
     *     ambiguous
     */
    Bean<?> resolve(Set<Bean<?>> beans) {
        try {
            return beanManager.resolve(beans);
        } catch (AmbiguousResolutionException e) {
            return null;
        }
    }

    /**
     * @param bean a bean
     * @param type the type to get it as
     * @param <T> the type
     * @return a contextual reference
     */
    <T> T reference(Bean<?> bean, Class<T> type) {
        return type.cast(beanManager.getReference(bean, type, beanManager.createCreationalContext(bean)));
    }

    private Set<Bean<?>> deployedBeans(Class<?> type, Annotation... qualifiers) {
        Set<Annotation> required =
                qualifiers.length == 0 ? Set.of(Default.Literal.INSTANCE) : new HashSet<>(Arrays.asList(qualifiers));
        Set<Bean<?>> matching = new HashSet<>();
        for (Bean<?> bean : deployed) {
            if (bean.getTypes().contains(type) && bean.getQualifiers().containsAll(required)) {
                matching.add(bean);
            }
        }
        return matching;
    }
}
