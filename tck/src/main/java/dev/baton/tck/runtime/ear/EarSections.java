package dev.baton.tck.runtime.ear;

import java.util.ArrayList;
import java.util.List;

/**
 * What both modules record, in the EAR's {@code lib/}: one class loader, so one record per application
 * whatever each module's CDI container does. Static on purpose: a bean could exist once per module, and a
 * per-module count would hide an overlap between the modules.
 */
public final class EarSections {

    /** How long a caller stays inside, so that callers without a common lock overlap. */
    static final long HOLD_MILLIS = 100;

    private static final Object GUARD = new Object();
    private static int inside;
    private static int most;
    private static final List<String> entries = new ArrayList<>();

    private EarSections() {}

    /** Enters as {@code module} with the lock's fencing {@code token}, stays {@link #HOLD_MILLIS}, leaves. */
    public static void hold(String module, long token) {
        synchronized (GUARD) {
            inside++;
            most = Math.max(most, inside);
            entries.add(module + "#" + token);
        }
        try {
            Thread.sleep(HOLD_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (GUARD) {
                inside--;
            }
        }
    }

    /** {@code most=<m>;entries=<module#token,...>} in the order the callers entered. */
    public static String report() {
        synchronized (GUARD) {
            return "most=" + most + ";entries=" + String.join(",", entries);
        }
    }
}
