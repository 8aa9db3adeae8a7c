package dev.baton.impl.cdi;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * One {@link ApplicationRuntime} per application, whatever the server does with Baton's extension per module. An
 * EAR whose {@code lib/} holds Baton has one copy of these classes; most servers run one CDI container for it, but a
 * server may boot the extension once per module (TomEE), which made a runtime per module: each with its own memory
 * store and tokens, so an EJB module and a web module held one key together. The {@link LockRuntime} of each
 * container joins the runtime of its application, named by {@code java:app/AppName}; the last to leave stops it.
 * Where there is no such name (Java SE, Helidon MP, Quarkus: one container per application anyway) each joins a
 * runtime of its own.
 */
final class ApplicationRuntimes {

    /** The Jakarta EE name of the application a component belongs to. */
    static final String APPLICATION_NAME = "java:app/AppName";

    private static final Map<String, Shared> RUNNING = new HashMap<>();

    private ApplicationRuntimes() {}

    private static final class Shared {
        final ApplicationRuntime runtime;
        int users;

        Shared(ApplicationRuntime runtime) {
            this.runtime = runtime;
        }
    }

    /**
     * @param application the application's name, empty where it has none
     * @param start makes the runtime, for the first container of the application
     * @return the application's runtime: {@link #leave} it when the container stops
     */
    static ApplicationRuntime join(Optional<String> application, Supplier<ApplicationRuntime> start) {
        if (application.isEmpty()) {
            return start.get();
        }
        synchronized (RUNNING) {
            Shared shared = RUNNING.get(application.get());
            if (shared == null) {
                shared = new Shared(start.get());
                RUNNING.put(application.get(), shared);
            }
            shared.users++;
            return shared.runtime;
        }
    }

    /**
     * A container of the application stops: the runtime stops with the last one. A runtime that stops is no longer
     * joined: an application deployed again while it stops gets a new one.
     *
     * @param application the name it joined with
     * @param runtime the runtime it joined
     */
    static void leave(Optional<String> application, ApplicationRuntime runtime) {
        if (application.isPresent()) {
            synchronized (RUNNING) {
                Shared shared = RUNNING.get(application.get());
                if (shared == null || shared.runtime != runtime) {
                    return; // not joined by name (it failed to start), or already stopped
                }
                if (--shared.users > 0) {
                    return;
                }
                RUNNING.remove(application.get());
            }
        }
        // Outside the lock: a stop waits up to the shutdown grace for running work.
        runtime.stop();
    }

    /**
     * @return the name of the application of the calling component ({@value #APPLICATION_NAME}), empty where
     *     there is no naming context (Java SE, Helidon MP, Quarkus)
     */
    static Optional<String> currentApplication() {
        try {
            Object name = new InitialContext().lookup(APPLICATION_NAME);
            return name instanceof String text && !text.isBlank() ? Optional.of(text) : Optional.empty();
        } catch (NamingException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }
}
