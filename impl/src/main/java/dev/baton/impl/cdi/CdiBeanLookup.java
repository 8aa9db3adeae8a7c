package dev.baton.impl.cdi;

import dev.baton.impl.store.BeanLookup;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.annotation.Annotation;
import java.util.Optional;
import java.util.Set;

/** Application beans for stores, through the {@link BeanManager}. */
final class CdiBeanLookup implements BeanLookup {

    private final BeanManager beanManager;

    CdiBeanLookup(BeanManager beanManager) {
        this.beanManager = beanManager;
    }

    @Override
    public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
        Set<Bean<?>> beans = beanManager.getBeans(type, qualifiers);
        if (beans.isEmpty()) {
            return Optional.empty();
        }
        Bean<?> bean = beanManager.resolve(beans);
        if (bean == null) {
            return Optional.empty();
        }
        return Optional.of(type.cast(beanManager.getReference(bean, type, beanManager.createCreationalContext(bean))));
    }
}
