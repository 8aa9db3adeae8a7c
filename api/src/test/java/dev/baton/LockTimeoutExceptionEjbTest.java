package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.ApplicationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link LockTimeoutException} is an EJB application exception that rolls back, and still loads and works
 * where the EJB API is missing (Java SE, Helidon, Quarkus): the JVM ignores an annotation whose class is not
 * found.
 */
class LockTimeoutExceptionEjbTest {

    @Test
    void isAnApplicationExceptionThatRollsBackForItsSubclassesToo() {
        ApplicationException annotation = LockTimeoutException.class.getAnnotation(ApplicationException.class);

        assertThat(annotation).isNotNull();
        assertThat(annotation.rollback()).isTrue();
        assertThat(annotation.inherited()).isTrue();
    }

    @Test
    void theOtherExceptionsStaySystemExceptions() {
        for (Class<?> type : new Class<?>[] {
            LockException.class,
            LockAlreadyHeldException.class,
            LockConfigurationException.class,
            LockInterruptedException.class,
            LockLostException.class,
            LockStoreDriverNotFoundException.class,
            LockStoreException.class
        }) {
            assertThat(type.getAnnotation(ApplicationException.class))
                    .as(type.getName())
                    .isNull();
        }
    }

    @Test
    void withoutTheEjbApiTheAnnotationIsIgnoredAndTheExceptionWorks() throws Exception {
        ClassLoader withoutEjb = new WithoutEjb(LockTimeoutExceptionEjbTest.class.getClassLoader());
        Class<?> type = withoutEjb.loadClass(LockTimeoutException.class.getName());
        assertThat(type).isNotSameAs(LockTimeoutException.class);
        assertThat(type.getClassLoader()).isSameAs(withoutEjb);

        assertThat(type.getAnnotations())
                .as("the annotation whose class is missing")
                .isEmpty();
        Object exception = type.getConstructor(String.class, Duration.class).newInstance("k", Duration.ofMillis(300));
        assertThat(exception).isInstanceOf(RuntimeException.class);
        assertThat(((RuntimeException) exception).getMessage()).contains("'k'").contains("300 ms");
        assertThat(type.getMethod("getKey").invoke(exception)).isEqualTo("k");
    }

    /** Defines Baton's API classes itself, from the same bytes, and finds no {@code jakarta.ejb} class. */
    private static final class WithoutEjb extends ClassLoader {

        WithoutEjb(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("jakarta.ejb.")) {
                throw new ClassNotFoundException(name);
            }
            if (!name.startsWith("dev.baton.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = bytes(name);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private byte[] bytes(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
