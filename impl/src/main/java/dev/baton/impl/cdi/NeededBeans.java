package dev.baton.impl.cdi;

import dev.baton.LockConfigurationException;
import dev.baton.LockKeyResolver;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.impl.transaction.TransactionSupport;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import jakarta.enterprise.inject.spi.Bean;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashSet;
import java.util.Set;

/**
 * Which of the application's beans the portable extension remembers from {@code ProcessBean}, as Hibernate
 * Validator's extension records only the bean types it needs: those Baton itself looks up (stores, key resolvers,
 * JTA's synchronization registry) and those the store factories on the class path ask for
 * ({@link LockStoreFactory#beanTypes()}). Compared by name: a type Baton may use need not be loadable.
 */
final class NeededBeans {

    private final Set<String> typeNames;

    private NeededBeans(Set<String> typeNames) {
        this.typeNames = typeNames;
    }

    /**
     * @return the types Baton and the store factories found now look up
     */
    static NeededBeans find() {
        Set<String> names = new HashSet<>();
        names.add(LockStore.class.getName());
        names.add(LockKeyResolver.class.getName());
        names.add(TransactionSupport.REGISTRY);
        try {
            for (LockStoreFactory factory : StoreRegistry.factories().values()) {
                names.addAll(factory.beanTypes());
            }
        } catch (LockConfigurationException e) {
            // A factory that cannot be loaded: the deployment's validation reports it, naming the store.
        }
        return new NeededBeans(Set.copyOf(names));
    }

    /**
     * @param bean a bean of the deployment
     * @return whether one of its types is one Baton looks up
     */
    boolean needed(Bean<?> bean) {
        for (Type type : bean.getTypes()) {
            Type raw = type instanceof ParameterizedType parameterized ? parameterized.getRawType() : type;
            if (raw instanceof Class<?> c && typeNames.contains(c.getName())) {
                return true;
            }
        }
        return false;
    }
}
