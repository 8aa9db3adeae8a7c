package dev.baton.impl.plan;

import dev.baton.LockConfigurationException;
import dev.baton.LockKeyResolver;
import dev.baton.LockOptions;
import dev.baton.LockType;
import dev.baton.Synchronized;
import dev.baton.impl.config.AnnotationOverrides;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Durations;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.engine.Sharing;
import dev.baton.impl.key.KeyTemplate;
import dev.baton.impl.key.TemplateException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Builds {@link MethodPlan}s: merges the annotation with its MicroProfile Config overrides, checks the
 * manager, compiles the key template and parses durations. Every problem is a
 * {@link LockConfigurationException} naming the class, the method and the value.
 */
public final class MethodPlans {

    private static final String ANNOTATION = Synchronized.class.getSimpleName();

    private MethodPlans() {}

    /**
     * @param beanClass the bean class (for config overrides and the default key)
     * @param method the intercepted method
     * @param annotation the binding that applies (the method's, else the class's)
     * @param classLevel whether the annotation is on the class
     * @param config the validated configuration
     * @param resolvers finds the bean of a key resolver class, at the method's first invocation (the CDI layer's
     *     lookup: planning itself knows no container)
     * @return the plan
     * @throws LockConfigurationException naming class, method and problem
     */
    public static MethodPlan build(
            Class<?> beanClass,
            Method method,
            Synchronized annotation,
            boolean classLevel,
            BatonConfig config,
            Function<Class<? extends LockKeyResolver>, ? extends LockKeyResolver> resolvers) {
        String description = beanClass.getName() + "." + method.getName() + "()";
        try {
            return plan(beanClass, method, annotation, classLevel, config, resolvers, description);
        } catch (LockConfigurationException | TemplateException e) {
            throw new LockConfigurationException("@Synchronized on " + description + ": " + e.getMessage());
        }
    }

    private static MethodPlan plan(
            Class<?> beanClass,
            Method method,
            Synchronized annotation,
            boolean classLevel,
            BatonConfig config,
            Function<Class<? extends LockKeyResolver>, ? extends LockKeyResolver> resolvers,
            String description) {
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isPrivate(modifiers) || Modifier.isFinal(modifiers)) {
            throw new LockConfigurationException("a static, private or final method cannot be intercepted");
        }
        AnnotationOverrides overrides = new AnnotationOverrides(config, beanClass, method, ANNOTATION);
        String manager = overrides.get("manager").orElse(annotation.manager());
        Optional<ManagerSettings> settings = config.manager(manager);
        if (settings.isEmpty()) {
            throw new LockConfigurationException(
                    "manager '" + manager + "' is not declared (list it in baton.managers)");
        }
        String template = overrides.get("value").orElse(annotation.value());
        Class<? extends LockKeyResolver> resolver = annotation.resolver();
        MethodPlan.KeySource keys;
        if (resolver != LockKeyResolver.class) {
            if (!template.isEmpty()) {
                throw new LockConfigurationException("both a key template ('" + template + "') and a resolver ("
                        + resolver.getName() + ") are set; use one");
            }
            keys = new ResolverKeys(resolver, resolvers);
        } else {
            String effective = template.isEmpty()
                    ? (classLevel ? beanClass.getName() : beanClass.getName() + "." + method.getName())
                    : template;
            KeyTemplate compiled = KeyTemplate.compile(effective, method);
            keys = (m, arguments) -> compiled.resolve(arguments); // a fixed key: resolve returns its one string
        }
        long ttl = duration(overrides, "ttl", annotation.ttl(), settings.get().ttlMillis());
        long timeout = duration(
                overrides, "timeout", annotation.timeout(), settings.get().timeoutMillis());
        boolean await =
                overrides.get("await").map(v -> bool(v, overrides.key("await"))).orElse(annotation.await());
        PollPolicy poll = settings.get()
                .poll()
                .with(
                        optionalDuration(overrides, "pollMinInterval", annotation.pollMinInterval()),
                        source(overrides, "pollMinInterval", annotation.pollMinInterval()),
                        optionalDuration(overrides, "pollMaxInterval", annotation.pollMaxInterval()),
                        source(overrides, "pollMaxInterval", annotation.pollMaxInterval()),
                        jitter(overrides, annotation.pollJitter()));
        boolean async = CompletionStage.class.isAssignableFrom(method.getReturnType());
        int sharedLimit = Sharing.limit(type(overrides, annotation.type()), permits(overrides, annotation.permits()));
        return new MethodPlan(description, manager, keys, ttl, timeout, await, poll, async, sharedLimit);
    }

    private static LockType type(AnnotationOverrides overrides, LockType annotated) {
        Optional<String> configured = overrides.get("type");
        if (configured.isEmpty()) {
            return annotated;
        }
        for (LockType type : LockType.values()) {
            if (type.name().equalsIgnoreCase(configured.get().trim())) {
                return type;
            }
        }
        throw new LockConfigurationException(
                overrides.key("type") + ": '" + configured.get() + "' is not READ or WRITE");
    }

    private static int permits(AnnotationOverrides overrides, int annotated) {
        Optional<String> configured = overrides.get("permits");
        String source = configured.isPresent() ? overrides.key("permits") : "permits = " + annotated;
        int permits;
        try {
            permits = configured.isPresent() ? Integer.parseInt(configured.get().trim()) : annotated;
        } catch (NumberFormatException e) {
            throw new LockConfigurationException(source + ": '" + configured.get() + "' is not a whole number");
        }
        if (permits < 0 || permits > LockOptions.MAX_PERMITS) {
            throw new LockConfigurationException(
                    source + ": permits must be from 0 (not set) to " + LockOptions.MAX_PERMITS + ", was " + permits);
        }
        return permits;
    }

    private static OptionalLong optionalDuration(AnnotationOverrides overrides, String member, String annotated) {
        if (overrides.get(member).isEmpty() && annotated.isBlank()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(duration(overrides, member, annotated, 0));
    }

    /** Where a member's value comes from, for messages: its config key, the annotation, or just its name. */
    private static String source(AnnotationOverrides overrides, String member, String annotated) {
        if (overrides.get(member).isPresent()) {
            return overrides.key(member);
        }
        return annotated.isBlank() ? member : member + " = \"" + annotated + "\"";
    }

    private static OptionalDouble jitter(AnnotationOverrides overrides, String annotated) {
        Optional<String> configured = overrides.get("pollJitter");
        if (configured.isPresent()) {
            return OptionalDouble.of(PollPolicy.parseJitter(configured.get(), overrides.key("pollJitter")));
        }
        return annotated.isBlank()
                ? OptionalDouble.empty()
                : OptionalDouble.of(PollPolicy.parseJitter(annotated, "pollJitter = \"" + annotated + "\""));
    }

    private static long duration(AnnotationOverrides overrides, String member, String annotated, long fallback) {
        Optional<String> configured = overrides.get(member);
        if (configured.isPresent()) {
            return Durations.parseMillis(configured.get(), overrides.key(member));
        }
        return annotated.isBlank() ? fallback : Durations.parseMillis(annotated, member + " = \"" + annotated + "\"");
    }

    private static boolean bool(String value, String key) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new LockConfigurationException(key + ": '" + value + "' is not true or false");
    }

    /** Looks the resolver bean up once, at the first invocation (its existence is checked at deployment). */
    private static final class ResolverKeys implements MethodPlan.KeySource {
        private final Class<? extends LockKeyResolver> type;
        private final Function<Class<? extends LockKeyResolver>, ? extends LockKeyResolver> lookup;
        private volatile LockKeyResolver resolver;

        ResolverKeys(
                Class<? extends LockKeyResolver> type,
                Function<Class<? extends LockKeyResolver>, ? extends LockKeyResolver> lookup) {
            this.type = type;
            this.lookup = lookup;
        }

        @Override
        public String key(Method method, Object[] arguments) {
            LockKeyResolver r = resolver;
            if (r == null) {
                r = lookup.apply(type);
                resolver = r;
            }
            return r.resolveKey(method, arguments);
        }
    }
}
