package dev.baton.impl.runtime;

import dev.baton.Leadership;
import dev.baton.Lock;
import dev.baton.LockConfigurationException;
import dev.baton.LockInfo;
import dev.baton.LockOptions;
import dev.baton.Locks;
import dev.baton.impl.engine.CurrentLocks;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The {@link Locks} of a manager without a store (the default manager when every {@code LockStore} bean
 * is named after another manager): it can be injected and lead to other managers, but taking a lock
 * fails with the reason found at deployment.
 */
public final class StorelessLocks implements Locks {

    private final String name;
    private final LockConfigurationException noStore;
    private final Function<String, Locks> managers;

    public StorelessLocks(String name, LockConfigurationException noStore, Function<String, Locks> managers) {
        this.name = name;
        this.noStore = noStore;
        this.managers = managers;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Locks manager(String manager) {
        return managers.apply(Objects.requireNonNull(manager, "manager name"));
    }

    @Override
    public Lock acquire(String key) {
        throw fail();
    }

    @Override
    public Lock acquire(String key, LockOptions options) {
        throw fail();
    }

    @Override
    public CompletionStage<Lock> acquireAsync(String key) {
        throw fail();
    }

    @Override
    public CompletionStage<Lock> acquireAsync(String key, LockOptions options) {
        throw fail();
    }

    @Override
    public Optional<Lock> tryAcquire(String key) {
        throw fail();
    }

    @Override
    public Optional<Lock> tryAcquire(String key, LockOptions options) {
        throw fail();
    }

    @Override
    public <T, E extends Exception> T callWithLock(String key, LockedWork<T, E> work) throws E {
        throw fail();
    }

    @Override
    public <T, E extends Exception> T callWithLock(String key, LockOptions options, LockedWork<T, E> work) throws E {
        throw fail();
    }

    @Override
    public <T> T callWithLock(String key, Callable<T> work) {
        throw fail();
    }

    @Override
    public <E extends Exception> void runWithLock(String key, LockedAction<E> action) throws E {
        throw fail();
    }

    @Override
    public <E extends Exception> void runWithLock(String key, LockOptions options, LockedAction<E> action) throws E {
        throw fail();
    }

    @Override
    public Leadership lead(String name) {
        throw fail();
    }

    @Override
    public Optional<Lock> current() {
        return CurrentLocks.current();
    }

    @Override
    public Optional<LockInfo> inspect(String key) {
        throw fail();
    }

    /** Without a store it holds nothing. */
    @Override
    public List<LockInfo> held() {
        return List.of();
    }

    @Override
    public boolean forceRelease(String key) {
        throw fail();
    }

    /** A fresh exception per call, with this call's stack. */
    private LockConfigurationException fail() {
        return new LockConfigurationException(noStore.getMessage());
    }

    @Override
    public String toString() {
        return "Locks[" + (name.isEmpty() ? "default" : name) + ", no store]";
    }
}
