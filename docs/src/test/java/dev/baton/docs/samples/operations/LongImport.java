package dev.baton.docs.samples.operations;

import dev.baton.Lock;
import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** One lock that needs a longer lease than the manager's ttl, decided at run time. */
@ApplicationScoped
public class LongImport {

    @Inject
    Locks locks;

    public void importFile(Path file) throws Exception {
        // tag::extend[]
        try (Lock lock = locks.acquire("import")) {
            if (Files.size(file) > 1_000_000_000L) {
                lock.extend(Duration.ofMinutes(30)); // the lease is now 30 min, and each renewal keeps it at 30 min
            }
            load(file, lock.fencingToken());
        }
        // end::extend[]
    }

    private void load(Path file, long fencingToken) {}
}
