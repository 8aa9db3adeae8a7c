package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The store a rule of {@link LockStoreContract} works on, kept by the contract for one rule at a time: the
 * instance {@link #open opened} before the rule, every other instance the rule opens (all closed after it), the
 * capabilities it declared, and the rule's own keys. The rule groups ({@link ContractRules}) reach it through
 * the contract, which owns the lifecycle, so a store author's own {@code @BeforeEach} and {@code @AfterEach}
 * methods keep running around it as they always have.
 */
final class StoreUnderTest {

    private final List<LockStore> opened = new ArrayList<>();
    private final String runId = ContractSupport.randomHex(6);
    private LockStoreContract contract;
    private String testName = "test";
    private LockStore store;
    private Set<StoreCapability> capabilities;

    /**
     * Opens the rule's store and checks the capabilities it declares.
     *
     * @param contract the contract whose {@link LockStoreContract#createStore()} makes the instances
     * @param testName the rule's method name, in its keys
     */
    void open(LockStoreContract contract, String testName) {
        this.contract = contract;
        this.testName = testName;
        store = newStore();
        assertThat(store.capabilities())
                .as("capabilities() of %s", store)
                .isNotNull()
                .doesNotContainNull();
        capabilities = Set.copyOf(store.capabilities());
        assertThat(capabilities.contains(StoreCapability.PERSISTENT)
                        && capabilities.contains(StoreCapability.ENDS_WITH_CONNECTION))
                .as(
                        "%s declares both PERSISTENT and ENDS_WITH_CONNECTION: locks either outlive the instance or end with it",
                        store)
                .isFalse();
    }

    /** Closes every instance the rule opened, each once; throws the first failure after trying them all. */
    void closeAll() {
        Set<LockStore> closed = Collections.newSetFromMap(new IdentityHashMap<>());
        RuntimeException failure = null;
        for (LockStore each : opened) {
            if (closed.add(each)) {
                try {
                    each.close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    }
                }
            }
        }
        opened.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** @return the instance opened before the rule */
    LockStore store() {
        return store;
    }

    /** @return a new instance on the same backend, closed after the rule */
    LockStore newStore() {
        LockStore created = contract.createStore();
        assertThat(created).as("createStore() must return a store").isNotNull();
        opened.add(created);
        return created;
    }

    /** Closes {@code old} (an application stop) and opens a new instance on the same backend. */
    LockStore restart(LockStore old) {
        old.close();
        forget(old);
        return newStore();
    }

    /** Leaves out of {@link #closeAll()} an instance the rule closed itself. */
    void forget(LockStore closed) {
        opened.removeIf(each -> each == closed);
    }

    /** @return whether the store declares {@code capability} */
    boolean declares(StoreCapability capability) {
        return capabilities.contains(capability);
    }

    /** @return the capabilities the store declares */
    Set<StoreCapability> capabilities() {
        return capabilities;
    }

    /** A key of this rule, apart from every other rule's and run's. */
    String key(String name) {
        return "tck:" + runId + ":" + testName + ":" + name;
    }

    /** @return {@code millis} times the contract's {@link LockStoreContract#timeFactor() time factor} */
    Duration scaled(long millis) {
        return TimeFactor.scale(Duration.ofMillis(millis), contract.timeFactor());
    }
}
