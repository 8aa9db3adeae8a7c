package dev.baton.jpa.internal.jta;

import dev.baton.LockStoreException;
import dev.baton.jpa.TransactionSuspender;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.function.Supplier;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The store's work on a data source with the caller's JTA transaction suspended, by the Jakarta Transactions
 * interceptor of {@code @Transactional(NOT_SUPPORTED)}: every Jakarta EE platform with CDI and JTA must apply
 * it to CDI beans, whereas the {@code TransactionManager} that could suspend by hand has no portable name
 * (WildFly {@code java:/TransactionManager}, Payara {@code java:appserver/TransactionManager}, none on Open
 * Liberty). {@code NOT_SUPPORTED} rather than {@code REQUIRES_NEW}: with no transaction at all the pooled
 * connection is not enlisted, so the store runs its own local transaction on it (on PostgreSQL one autocommit
 * statement), without a JTA transaction, its log or its timeout around each lock operation.
 *
 * <p>Registered by {@link JtaExtension} only where {@code jakarta.transaction} is present, so the jar deploys
 * without it. As a guard against a platform that does not apply the interceptor, each call checks with the
 * {@code TransactionSynchronizationRegistry} (a CDI bean, else {@code java:comp/TransactionSynchronizationRegistry})
 * that no transaction is active inside.
 */
@ApplicationScoped
@Typed(NotSupportedSuspender.class)
@Transactional(Transactional.TxType.NOT_SUPPORTED)
public class NotSupportedSuspender implements TransactionSuspender {

    private static final String REGISTRY = "java:comp/TransactionSynchronizationRegistry";

    @Inject
    Instance<TransactionSynchronizationRegistry> registries;

    private volatile TransactionSynchronizationRegistry registry;
    private volatile boolean registryLookedUp;

    @Override
    public <T> T outsideTransaction(Supplier<T> work) {
        TransactionSynchronizationRegistry r = registry();
        if (r != null && r.getTransactionKey() != null) {
            throw new LockStoreException("The JPA lock store found the caller's JTA transaction still active inside"
                    + " its @Transactional(NOT_SUPPORTED) bean: the platform did not apply the Jakarta Transactions"
                    + " interceptor, so the store's statements on baton.jpa.data-source would join the caller's"
                    + " transaction. Enable the @Transactional interceptors, or use a non-JTA data source");
        }
        return work.get();
    }

    private TransactionSynchronizationRegistry registry() {
        if (registryLookedUp) {
            return registry;
        }
        TransactionSynchronizationRegistry found = null;
        try {
            if (registries != null && registries.isResolvable()) {
                found = registries.get();
            }
        } catch (RuntimeException e) {
            // not a bean here: try the standard name
        }
        if (found == null) {
            try {
                if (new InitialContext().lookup(REGISTRY) instanceof TransactionSynchronizationRegistry jndi) {
                    found = jndi;
                }
            } catch (NamingException | RuntimeException e) {
                // no naming context (Java SE, or a thread without one): no guard, and no lookup per call either
            }
        }
        registry = found;
        registryLookedUp = true;
        return found;
    }

    @Override
    public String toString() {
        return "@Transactional(NOT_SUPPORTED)";
    }
}
