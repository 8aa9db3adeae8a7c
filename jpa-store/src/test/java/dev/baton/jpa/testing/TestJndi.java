package dev.baton.jpa.testing;

import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.OperationNotSupportedException;
import javax.naming.spi.InitialContextFactory;

/**
 * A JNDI naming context of the test's own: {@link #install()} makes {@code new InitialContext()} look names up
 * in a map (through {@code java.naming.factory.initial}), as a server's {@code java:comp} would.
 */
public final class TestJndi implements InitialContextFactory {

    private static final Map<String, Object> BOUND = new ConcurrentHashMap<>();

    /** Makes this the JVM's initial context factory. */
    public static void install() {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, TestJndi.class.getName());
    }

    /** Removes every binding and the factory. */
    public static void uninstall() {
        BOUND.clear();
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
    }

    /**
     * @param name the JNDI name
     * @param value what it is bound to
     */
    public static void bind(String name, Object value) {
        BOUND.put(name, value);
    }

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) {
        return (Context) Proxy.newProxyInstance(
                TestJndi.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "lookup" -> {
                            String name = String.valueOf(args[0]);
                            Object value = BOUND.get(name);
                            if (value == null) {
                                throw new NameNotFoundException(name + " is not bound");
                            }
                            return value;
                        }
                        case "getNameParser" -> { // Hibernate ORM parses the name before it looks it up
                            return (NameParser) CompositeName::new;
                        }
                        case "close" -> {
                            return null;
                        }
                        case "toString" -> {
                            return "TestJndi" + BOUND.keySet();
                        }
                        case "hashCode" -> {
                            return System.identityHashCode(proxy);
                        }
                        case "equals" -> {
                            return proxy == args[0];
                        }
                        default -> throw new OperationNotSupportedException(method.getName());
                    }
                });
    }
}
