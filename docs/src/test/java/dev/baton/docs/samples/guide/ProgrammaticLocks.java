package dev.baton.docs.samples.guide;

import dev.baton.Lock;
import dev.baton.LockLostException;
import dev.baton.LockOptions;
import dev.baton.LockType;
import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** The {@link Locks} API as the user guide shows it; {@code GuideSamplesTest} runs every method. */
@ApplicationScoped
public class ProgrammaticLocks {

    @Inject
    Locks locks;

    /** What the samples wrote, with the token they wrote it under. */
    final List<String> journal = Collections.synchronizedList(new ArrayList<>());

    void save(String what, long token) {
        journal.add(what + "@" + token);
    }

    public void acquire(String id) {
        // tag::acquire[]
        try (Lock lock = locks.acquire("order:" + id)) { // waits up to baton.timeout
            save("order " + id, lock.fencingToken());
        } // released here (or after the JTA transaction the code runs in)
        // end::acquire[]
    }

    public boolean tryOnce() {
        // tag::try-acquire[]
        Optional<Lock> cleanup = locks.tryAcquire("cleanup"); // one attempt, no waiting
        if (cleanup.isEmpty()) {
            return false; // another holder has it
        }
        try (Lock lock = cleanup.get()) {
            save("cleanup", lock.fencingToken());
        }
        return true;
        // end::try-acquire[]
    }

    public String call(String id) {
        // tag::call-with-lock[]
        String receipt = locks.callWithLock("order:" + id, lock -> "receipt-" + id + "-" + lock.fencingToken());
        // end::call-with-lock[]
        return receipt;
    }

    public void withOptions() {
        // tag::options[]
        locks.runWithLock("report", LockOptions.defaults().withTtl(Duration.ofMinutes(5)), lock -> {
            save("report", lock.fencingToken()); // a lease of 5 minutes, renewed every 100 s
        });
        locks.runWithLock("reindex", LockOptions.defaults().withAwait(false), lock -> {
            save("reindex", lock.fencingToken()); // as @Synchronized(await = false): LockTimeoutException if held
        });
        locks.runWithLock("import", LockOptions.defaults().withTimeout(Duration.ofSeconds(2)), lock -> {
            save("import", lock.fencingToken()); // waits at most 2 s
        });
        // end::options[]
    }

    public void longWork() {
        // tag::when-lost[]
        try (Lock lock = locks.acquire("import")) {
            lock.whenLost().thenAccept(reason -> stop(reason)); // told at once, on another thread
            for (int batch = 0; batch < 3; batch++) {
                lock.checkHeld(); // throws LockLostException once the lock is gone
                save("batch " + batch, lock.fencingToken());
            }
        }
        // end::when-lost[]
    }

    public void permitsAndReaders() {
        // tag::permits[]
        LockOptions threeAtOnce = LockOptions.defaults().withPermits(3);
        try (Lock permit = locks.acquire("export", threeAtOnce)) { // one of three, across every instance
            save("export", permit.fencingToken()); // each permit has its own token
        }
        try (Lock read = locks.acquire("prices", LockOptions.defaults().withType(LockType.READ))) {
            save("read prices", read.fencingToken());
        }
        // end::permits[]
    }

    public CompletionStage<String> pay(String id) {
        // tag::async[]
        CompletionStage<String> receipt = locks.acquireAsync("order:" + id) // no thread waits meanwhile
                .thenApply(lock -> {
                    try (lock) { // the lock is its handle's: any thread may release it
                        save("order " + id, lock.fencingToken());
                        return "receipt-" + id;
                    }
                });
        // end::async[]
        return receipt;
    }

    void stop(LockLostException reason) {
        journal.add("lost: " + reason.getMessage());
    }

    public void named() {
        locks.manager("reports").runWithLock("weekly", lock -> save("weekly", lock.fencingToken()));
    }
}
