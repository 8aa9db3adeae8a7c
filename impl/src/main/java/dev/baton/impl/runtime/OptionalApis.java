package dev.baton.impl.runtime;

/**
 * Whether an optional API (MicroProfile Health, OpenTelemetry, JSON-P) is on the application's class path:
 * the code that names its types is loaded only after it was found.
 */
public final class OptionalApis {

    private OptionalApis() {}

    /**
     * @param className a class of the API
     * @param loader where to look
     * @return whether it can be loaded there
     */
    public static boolean present(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
