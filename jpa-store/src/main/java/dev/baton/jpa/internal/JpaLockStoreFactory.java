package dev.baton.jpa.internal;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.jpa.ForLocks;
import dev.baton.jpa.JpaLockStore;
import dev.baton.jpa.LockMode;
import dev.baton.jpa.SchemaAction;
import dev.baton.jpa.TransactionRunner;
import dev.baton.jpa.TransactionSuspender;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import jakarta.persistence.spi.PersistenceProviderResolverHolder;
import java.util.Optional;
import java.util.Set;

/**
 * {@code baton.store=jpa}. Settings (below {@code baton.jpa.}, or {@code baton.<manager>.jpa.}):
 * <ul>
 * <li>{@code data-source}: the JNDI name of a JDBC data source (JTA or not) the store runs its statements on,
 * with the caller's JTA transaction suspended; no persistence unit needed;</li>
 * <li>{@code persistence-unit}: the persistence unit the store creates its own
 * {@link EntityManagerFactory} from; when absent, the application's {@link EntityManagerFactory}
 * CDI bean is used;</li>
 * <li>{@code table} (default {@code baton_locks}) and {@code sequence} (default
 * {@code baton_fencing_seq}): plain identifiers, optionally schema-qualified, no part of them an SQL
 * reserved word of PostgreSQL, MariaDB or H2;</li>
 * <li>{@code schema-action}: {@code none} (default), {@code create} or {@code validate};</li>
 * <li>{@code statement-timeout} (default {@code 5s}): the bound of store calls that come without one
 * (release, and calls of callers that set none): how long they wait for a row lock of another
 * transaction, and (plus two seconds) for the database's answer. A duration: {@code 500ms}, {@code 5s},
 * {@code 1m}, ISO-8601 ({@code PT5S}) or plain milliseconds.</li>
 * <li>{@code mode}: {@code table} (default) or {@code advisory} ({@link LockMode}).</li>
 * <li>{@code purge-after} (default: no purge): delete rows whose lease ended longer ago than this, at least
 * {@link JpaLockStore#minimumPurgeAfter} of the statement timeout; {@code purge-interval} (default half of it,
 * from 30 s to an hour): how often.</li>
 * </ul>
 * A {@link TransactionRunner} bean of the application, if any, runs the store's transactions.
 */
public final class JpaLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "jpa";

    static final String DATA_SOURCE = "data-source";
    static final String PERSISTENCE_UNIT = "persistence-unit";
    static final String TABLE = "table";
    static final String SEQUENCE = "sequence";
    static final String SCHEMA_ACTION = "schema-action";
    static final String STATEMENT_TIMEOUT = "statement-timeout";
    static final String MODE = "mode";
    static final String PURGE_AFTER = "purge-after";
    static final String PURGE_INTERVAL = "purge-interval";

    private static final java.util.regex.Pattern DURATION =
            java.util.regex.Pattern.compile("(\\d{1,15})\\s*(ms|s|m|h|d)?");

    private static final System.Logger LOG = System.getLogger(JpaLockStoreFactory.class.getName());

    private static final String PROVIDER = "a Jakarta Persistence 3.1 provider (Hibernate ORM 6.6 or EclipseLink 4.0)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Set<String>> settingNames() {
        return Optional.of(Set.of(
                DATA_SOURCE,
                PERSISTENCE_UNIT,
                TABLE,
                SEQUENCE,
                SCHEMA_ACTION,
                STATEMENT_TIMEOUT,
                MODE,
                PURGE_AFTER,
                PURGE_INTERVAL));
    }

    @Override
    public Set<String> beanTypes() {
        return Set.of("jakarta.persistence.EntityManagerFactory", TransactionRunner.class.getName());
    }

    @Override
    public void validate(StoreContext context) {
        identifier(context, TABLE, Dialect.DEFAULT_TABLE);
        identifier(context, SEQUENCE, Dialect.DEFAULT_SEQUENCE);
        schemaAction(context);
        statementTimeout(context);
        purgeAfter(context);
        purgeInterval(context);
        LockMode mode = mode(context);
        Optional<String> dataSource = dataSource(context);
        Optional<String> unit = persistenceUnit(context);
        if (dataSource.isPresent()) {
            if (unit.isPresent()) {
                throw new LockConfigurationException(context.settingKey(DATA_SOURCE) + "='" + dataSource.get()
                        + "' and " + context.settingKey(PERSISTENCE_UNIT) + "='" + unit.get()
                        + "' are both set: the store runs on one of them; remove one");
            }
            try {
                JndiDataSource.lookup(dataSource.get(), context.settingKey(DATA_SOURCE));
            } catch (javax.naming.NamingException e) {
                // no naming context while deploying (Java SE, some servers): the first operation looks it up
            }
            return;
        }
        requirePersistenceApi();
        if (unit.isPresent()) {
            boolean noProvider;
            try {
                noProvider = PersistenceProviderResolverHolder.getPersistenceProviderResolver()
                        .getPersistenceProviders()
                        .isEmpty();
            } catch (RuntimeException | LinkageError e) {
                throw new LockStoreDriverNotFoundException(NAME, PROVIDER, e);
            }
            if (noProvider) {
                throw new LockStoreDriverNotFoundException(NAME, PROVIDER, null);
            }
            Set<String> declared = PersistenceUnits.declared(classLoader());
            if (!declared.contains(unit.get())) {
                throw new LockConfigurationException(context.settingKey(PERSISTENCE_UNIT) + "='" + unit.get()
                        + "' names no persistence unit of the application (META-INF/persistence.xml declares "
                        + (declared.isEmpty() ? "none" : String.join(", ", declared)) + ")");
            }
        } else {
            Optional<EntityManagerFactory> bean = factoryBean(context);
            if (bean.isEmpty()) {
                throw new LockConfigurationException("The JPA lock store needs a data source or an"
                        + " EntityManagerFactory: set " + context.settingKey(DATA_SOURCE) + " to the JNDI name of a"
                        + " data source on a database every instance reaches (e.g. jdbc/locks), or "
                        + context.settingKey(PERSISTENCE_UNIT)
                        + " to a persistence unit name, or let the application provide an EntityManagerFactory CDI"
                        + " bean");
            }
            if (mode == LockMode.ADVISORY && onH2(bean.get())) {
                // known without connecting; otherwise the first operation tells (the store connects lazily)
                throw new LockConfigurationException(context.settingKey(MODE) + "='advisory' needs PostgreSQL or"
                        + " MariaDB, but the EntityManagerFactory is on H2, which has no advisory locks: use "
                        + context.settingKey(MODE) + "=table (the default)");
            }
        }
    }

    @Override
    public LockStore create(StoreContext context) {
        validate(context);
        Optional<String> dataSource = dataSource(context);
        Optional<String> unit = persistenceUnit(context);
        JpaLockStore.Builder builder;
        if (dataSource.isPresent()) {
            builder = JpaLockStore.builder(
                            new JndiDataSource(dataSource.get(), context.settingKey(DATA_SOURCE)).lookUpIfPossible())
                    .transactionSuspender(suspender(context));
        } else {
            builder = unit.isPresent()
                    ? JpaLockStore.builder(() -> Persistence.createEntityManagerFactory(unit.get()))
                    : JpaLockStore.builder(factoryBean(context).orElseThrow());
            context.bean(TransactionRunner.class).ifPresent(builder::transactionRunner);
        }
        builder.table(identifier(context, TABLE, Dialect.DEFAULT_TABLE))
                .sequence(identifier(context, SEQUENCE, Dialect.DEFAULT_SEQUENCE))
                .schemaAction(schemaAction(context))
                .statementTimeout(statementTimeout(context))
                .mode(mode(context))
                .logKeys(context.logKeys());
        purgeAfter(context).ifPresent(builder::purgeAfter);
        purgeInterval(context).ifPresent(builder::purgeInterval);
        return builder.build();
    }

    /**
     * The {@code @Transactional(NOT_SUPPORTED)} bean where Jakarta Transactions is present (see
     * {@link dev.baton.jpa.internal.jta.NotSupportedSuspender} for why that one), else none: without JTA no
     * connection can join a transaction.
     */
    private static TransactionSuspender suspender(StoreContext context) {
        if (!dev.baton.jpa.internal.jta.JtaExtension.present()) {
            return TransactionSuspender.NONE;
        }
        Optional<? extends TransactionSuspender> bean =
                context.bean(dev.baton.jpa.internal.jta.NotSupportedSuspender.class);
        if (bean.isEmpty()) {
            JpaMessage.NO_SUSPENDER.log(LOG, dev.baton.jpa.internal.jta.JtaExtension.class.getName());
            return TransactionSuspender.NONE;
        }
        return bean.get();
    }

    /** The application's {@code @ForLocks} factory, else its only {@code @Default} one. */
    private Optional<EntityManagerFactory> factoryBean(StoreContext context) {
        Optional<EntityManagerFactory> marked = context.bean(EntityManagerFactory.class, ForLocks.INSTANCE);
        if (marked.isPresent()) {
            return marked;
        }
        try {
            return context.bean(EntityManagerFactory.class);
        } catch (LockConfigurationException several) {
            throw new LockConfigurationException(several.getMessage() + ". Mark the one for locks with @"
                    + ForLocks.class.getName()
                    + " (Jakarta EE 11 servers make each persistence unit such a bean), or set "
                    + context.settingKey(PERSISTENCE_UNIT));
        }
    }

    private static ClassLoader classLoader() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loader != null ? loader : JpaLockStoreFactory.class.getClassLoader();
    }

    private static void requirePersistenceApi() {
        try {
            Class.forName(
                    "jakarta.persistence.EntityManagerFactory", false, JpaLockStoreFactory.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LockStoreDriverNotFoundException(NAME, "the Jakarta Persistence API and " + PROVIDER, e);
        }
    }

    private static Optional<String> dataSource(StoreContext context) {
        Optional<String> name = context.setting(DATA_SOURCE).map(String::strip);
        if (name.isPresent() && name.get().isEmpty()) {
            throw new LockConfigurationException(context.settingKey(DATA_SOURCE) + "='' is empty: give the JNDI name"
                    + " of a data source (e.g. jdbc/locks), or remove the key");
        }
        return name;
    }

    private static Optional<String> persistenceUnit(StoreContext context) {
        Optional<String> unit = context.setting(PERSISTENCE_UNIT).map(String::strip);
        if (unit.isPresent() && unit.get().isEmpty()) {
            throw new LockConfigurationException(
                    context.settingKey(PERSISTENCE_UNIT) + "='' is empty: name a persistence"
                            + " unit, or remove the key to use the application's EntityManagerFactory bean");
        }
        return unit;
    }

    private static String identifier(StoreContext context, String setting, String defaultValue) {
        String value = context.setting(setting).orElse(defaultValue);
        String problem = Identifiers.problem(value);
        if (problem != null) {
            throw new LockConfigurationException(context.settingKey(setting) + "='" + value + "' " + problem);
        }
        return value;
    }

    private static java.time.Duration statementTimeout(StoreContext context) {
        return duration(context, STATEMENT_TIMEOUT).orElse(JpaLockStore.DEFAULT_STATEMENT_TIMEOUT);
    }

    /** {@code purge-after}, at least the minimum for the statement timeout. */
    private static Optional<java.time.Duration> purgeAfter(StoreContext context) {
        Optional<java.time.Duration> after = duration(context, PURGE_AFTER);
        if (after.isPresent()) {
            java.time.Duration timeout = statementTimeout(context);
            java.time.Duration minimum = JpaLockStore.minimumPurgeAfter(timeout);
            if (after.get().compareTo(minimum) < 0) {
                throw new LockConfigurationException(context.settingKey(PURGE_AFTER) + "='"
                        + context.setting(PURGE_AFTER).orElseThrow() + "' is shorter than the minimum of "
                        + minimum.toMillis() + " ms (" + minimum + "): 10 x (" + context.settingKey(STATEMENT_TIMEOUT)
                        + " of " + timeout.toMillis() + " ms + " + CallBound.NETWORK_ALLOWANCE_MILLIS
                        + " ms), at least 1 minute, so that no acquisition still running can meet a purged row"
                        + " (see docs/stores.md, The schema)");
            }
        }
        return after;
    }

    /** {@code purge-interval}, at least a second, and only with {@code purge-after}. */
    private static Optional<java.time.Duration> purgeInterval(StoreContext context) {
        Optional<java.time.Duration> interval = duration(context, PURGE_INTERVAL);
        if (interval.isPresent()) {
            if (context.setting(PURGE_AFTER).isEmpty()) {
                throw new LockConfigurationException(context.settingKey(PURGE_INTERVAL) + "='"
                        + context.setting(PURGE_INTERVAL).orElseThrow() + "' is set but "
                        + context.settingKey(PURGE_AFTER) + " is not: set it too, or remove the interval");
            }
            if (interval.get().toMillis() < 1_000) {
                throw new LockConfigurationException(context.settingKey(PURGE_INTERVAL) + "='"
                        + context.setting(PURGE_INTERVAL).orElseThrow() + "' must be at least 1 s");
            }
        }
        return interval;
    }

    /** A duration setting: {@code 500ms}, {@code 5s}, {@code 1m}, ISO-8601 or plain milliseconds; 1 ms to 365 days. */
    private static Optional<java.time.Duration> duration(StoreContext context, String setting) {
        Optional<String> value = context.setting(setting);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        String text = value.get().strip();
        long millis;
        try {
            java.util.regex.Matcher m = DURATION.matcher(text);
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                millis = Math.multiplyExact(
                        amount,
                        switch (m.group(2) == null ? "ms" : m.group(2)) {
                            case "s" -> 1_000L;
                            case "m" -> 60_000L;
                            case "h" -> 3_600_000L;
                            case "d" -> 86_400_000L;
                            default -> 1L;
                        });
            } else {
                millis = java.time.Duration.parse(text).toMillis();
            }
        } catch (RuntimeException e) {
            throw new LockConfigurationException(
                    context.settingKey(setting) + "='" + value.get()
                            + "' is not a duration: use e.g. 500ms, 5s, 1m, PT5S or plain milliseconds",
                    e);
        }
        if (millis < 1 || millis > dev.baton.spi.LockArguments.MAX_DURATION_MILLIS) {
            throw new LockConfigurationException(
                    context.settingKey(setting) + "='" + value.get() + "' must be from 1 ms to 365 days");
        }
        return Optional.of(java.time.Duration.ofMillis(millis));
    }

    private static boolean onH2(EntityManagerFactory factory) {
        try {
            for (String key : new String[] {
                "jakarta.persistence.jdbc.url", "javax.persistence.jdbc.url", "hibernate.connection.url"
            }) {
                if (factory.getProperties().get(key) instanceof String url && url.startsWith("jdbc:h2:")) {
                    return true;
                }
            }
        } catch (RuntimeException e) {
            // a factory that cannot tell: the first operation will
        }
        return false;
    }

    private static LockMode mode(StoreContext context) {
        Optional<String> value = context.setting(MODE);
        if (value.isEmpty()) {
            return LockMode.TABLE;
        }
        try {
            return LockMode.parse(value.get());
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException(
                    context.settingKey(MODE) + "='" + value.get()
                            + "' is not a lock mode: use table (the default) or advisory (PostgreSQL and MariaDB)",
                    e);
        }
    }

    private static SchemaAction schemaAction(StoreContext context) {
        Optional<String> value = context.setting(SCHEMA_ACTION);
        if (value.isEmpty()) {
            return SchemaAction.NONE;
        }
        try {
            return SchemaAction.parse(value.get());
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException(
                    context.settingKey(SCHEMA_ACTION) + "='" + value.get()
                            + "' is not a schema action: use none, create or validate",
                    e);
        }
    }
}
