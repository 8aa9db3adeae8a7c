package dev.baton.impl.config;

import java.lang.reflect.Method;
import java.util.Optional;

/**
 * The MicroProfile Fault Tolerance style overrides of an annotation's members: method, then class, then
 * global ({@code com.acme.Reports/nightly/Exclusive/hold}, {@code com.acme.Reports/Exclusive/hold},
 * {@code Exclusive/hold}).
 */
public final class AnnotationOverrides {

    private final BatonConfig config;
    private final String[] prefixes;
    private String lastKey;

    /**
     * @param config the configuration
     * @param beanClass the bean class, whose name the keys use
     * @param method the method
     * @param annotation the annotation's simple name, e.g. {@code Synchronized}
     */
    public AnnotationOverrides(BatonConfig config, Class<?> beanClass, Method method, String annotation) {
        this.config = config;
        String cls = beanClass.getName();
        this.prefixes = new String[] {
            cls + "/" + method.getName() + "/" + annotation + "/", cls + "/" + annotation + "/", annotation + "/"
        };
    }

    /**
     * @param member the member, e.g. {@code ttl}
     * @return the most specific configured value
     */
    public Optional<String> get(String member) {
        for (String prefix : prefixes) {
            Optional<String> value = config.value(prefix + member);
            if (value.isPresent()) {
                lastKey = prefix + member;
                return value;
            }
        }
        return Optional.empty();
    }

    /**
     * @param member the member
     * @return the key the last {@link #get} of this member found, else the method-level key: for messages
     */
    public String key(String member) {
        return lastKey != null && lastKey.endsWith("/" + member) ? lastKey : prefixes[0] + member;
    }
}
