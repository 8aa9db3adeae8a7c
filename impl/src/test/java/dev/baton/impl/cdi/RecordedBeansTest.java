package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockKeyResolver;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.BatonTest;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.util.List;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * The portable extension remembers from {@code ProcessBean} only the beans of types Baton looks up (a produced
 * store, a key resolver), not every bean of the deployment, as Hibernate Validator's extension does.
 */
@BatonTest
@AddBeanClasses({RecordedBeansTest.Stores.class, RecordedBeansTest.TenantKeys.class, RecordedBeansTest.Unrelated.class})
class RecordedBeansTest {

    @ApplicationScoped
    public static class Stores {
        @Produces
        @ApplicationScoped
        LockStore store() {
            return new MemoryLockStore();
        }
    }

    @ApplicationScoped
    public static class TenantKeys implements LockKeyResolver {
        @Override
        public String resolveKey(Method method, Object[] arguments) {
            return "tenant";
        }
    }

    @ApplicationScoped
    public static class Unrelated {}

    @Inject
    BatonExtension extension;

    @Test
    void onlyTheBeansBatonLooksUpAreRecorded() {
        List<Bean<?>> recorded = extension.recordedBeans();
        assertThat(recorded)
                .anySatisfy(bean -> assertThat(bean.getTypes()).contains(LockStore.class))
                .anySatisfy(bean -> assertThat(bean.getBeanClass()).isEqualTo(TenantKeys.class))
                .noneSatisfy(bean -> assertThat(bean.getBeanClass()).isIn(Unrelated.class, RecordedBeansTest.class))
                .allSatisfy(bean -> assertThat(bean.getTypes())
                        .anySatisfy(type -> assertThat(type).isIn(LockStore.class, LockKeyResolver.class)));
    }
}
