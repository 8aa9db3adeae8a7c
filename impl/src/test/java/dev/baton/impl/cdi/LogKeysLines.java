package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Leadership;
import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.tck.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Lines of a real deployment that name keys, for the tests of {@code baton.log.keys}: a force release
 * ({@code BATON-050}), the loss its holder learns of ({@code BATON-002}) and an election won ({@code BATON-070}),
 * each on a key built from an e-mail address.
 */
final class LogKeysLines {

    static final String KEY = "customer:ann@example.com";
    static final String ELECTION = "tenant:ann@example.com";

    private LogKeysLines() {}

    /** @return the lines logged by {@code dev.baton} meanwhile, each of the three ids among them */
    static List<String> logged(Locks locks) {
        try (LogCapture log = LogCapture.start("dev.baton")) {
            Lock held = locks.acquire(KEY);
            assertThat(locks.forceRelease(KEY)).isTrue();
            held.whenLost().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS).join();
            held.close();
            try (Leadership leadership = locks.lead(ELECTION)) {
                leadership
                        .whenGranted()
                        .toCompletableFuture()
                        .orTimeout(5, TimeUnit.SECONDS)
                        .join();
            }
            List<String> lines = log.messages();
            for (String id : List.of("BATON-050", "BATON-002", "BATON-070")) {
                assertThat(lines).as(id).anySatisfy(line -> assertThat(line).startsWith(id));
            }
            return lines;
        }
    }
}
