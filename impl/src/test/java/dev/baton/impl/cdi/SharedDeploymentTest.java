package dev.baton.impl.cdi;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Permits and read locks are refused at deployment on a store without shared leases, and bad values of theirs fail
 * the deployment naming the method or the key.
 */
class SharedDeploymentTest {

    @ApplicationScoped
    public static class Bulkhead {
        @Synchronized(value = "export", permits = 3)
        public void export() {}
    }

    @ApplicationScoped
    public static class TooManyPermits {
        @Synchronized(value = "export", permits = 2_000_000)
        public void export() {}
    }

    @Test
    void aStoreWithoutSharedLeasesFailsTheDeploymentNamingTheMethod() throws Exception {
        Path directory = Files.createTempDirectory("baton-shared");
        assertDeploymentFails(new String[] {"baton.store=file", "baton.file.directory=" + directory}, Bulkhead.class)
                .hasStackTraceContaining("@Synchronized on " + Bulkhead.class.getName() + ".export")
                .hasStackTraceContaining("SHARED_LOCKS");
    }

    @Test
    void permitsOutOfRangeOnTheMethod() {
        assertDeploymentFails(new String[] {"baton.store=memory"}, TooManyPermits.class)
                .hasStackTraceContaining(TooManyPermits.class.getName() + ".export()")
                .hasStackTraceContaining("permits must be from 0 (not set) to 1000000, was 2000000");
    }

    @Test
    void aConfiguredTypeThatIsNeitherReadNorWrite() {
        String key = Bulkhead.class.getName() + "/export/Synchronized/type";
        assertDeploymentFails(new String[] {"baton.store=memory", key + "=BOTH"}, Bulkhead.class)
                .hasStackTraceContaining(key + ": 'BOTH' is not READ or WRITE");
    }

    @Test
    void configuredPermitsThatAreNoNumber() {
        String key = "Synchronized/permits";
        assertDeploymentFails(new String[] {"baton.store=memory", key + "=three"}, Bulkhead.class)
                .hasStackTraceContaining(key + ": 'three' is not a whole number");
    }
}
