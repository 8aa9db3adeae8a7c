package dev.baton.impl.runtime;

import java.lang.annotation.Annotation;
import java.util.Optional;

/** Finds application beans for stores; inside CDI backed by the {@code BeanManager}. */
public interface BeanLookup {

    /**
     * @param type the bean type
     * @param qualifiers its qualifiers
     * @param <T> the bean type
     * @return a contextual reference, if exactly one such bean exists
     */
    <T> Optional<T> bean(Class<T> type, Annotation... qualifiers);
}
