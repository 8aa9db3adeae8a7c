package dev.baton.jpa.testing;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A pooled JTA data source as application servers make them by default (WildFly's {@code ExampleDS}, a
 * "local-tx" data source): a connection taken while the thread has an active transaction is enlisted in it
 * through a one-phase {@link XAResource} over the connection's own commit and rollback, every connection the
 * transaction takes is the same one, and it goes back to the pool when the transaction completes. Outside a
 * transaction a connection is a plain one, in auto-commit mode.
 */
public final class JtaDataSource extends PlainDataSource {

    private final String url;
    private final TransactionManager tm;
    private final LinkedBlockingDeque<Connection> idle = new LinkedBlockingDeque<>();
    private final Map<Transaction, Connection> enlisted = new ConcurrentHashMap<>();
    private final AtomicInteger enlistments = new AtomicInteger();

    /**
     * @param url the database's JDBC URL
     * @param tm the transaction manager whose transactions connections join; null for a plain pool
     */
    public JtaDataSource(String url, TransactionManager tm) {
        this.url = url;
        this.tm = tm;
    }

    /** @return how many connections were enlisted in a transaction so far */
    public int enlistments() {
        return enlistments.get();
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            Transaction tx = tm == null ? null : tm.getTransaction();
            if (tx != null && tx.getStatus() == Status.STATUS_ACTIVE) {
                Connection shared = enlisted.get(tx);
                if (shared == null) {
                    Connection physical = take();
                    physical.setAutoCommit(false);
                    tx.enlistResource(new LocalXaResource(physical));
                    tx.registerSynchronization(new Synchronization() {
                        @Override
                        public void beforeCompletion() {}

                        @Override
                        public void afterCompletion(int status) {
                            enlisted.remove(tx);
                            giveBack(physical);
                        }
                    });
                    enlisted.put(tx, physical);
                    enlistments.incrementAndGet();
                    shared = physical;
                }
                return handle(shared, false); // closing the handle leaves it to the transaction
            }
            return handle(take(), true);
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException("cannot join the transaction: " + e, e);
        }
    }

    private Connection take() throws SQLException {
        Connection c = idle.pollFirst();
        return c != null && !c.isClosed() ? c : DriverManager.getConnection(url);
    }

    private void giveBack(Connection physical) {
        try {
            if (!physical.isClosed()) {
                if (!physical.getAutoCommit()) {
                    physical.rollback();
                    physical.setAutoCommit(true);
                }
                idle.offerFirst(physical);
            }
        } catch (SQLException e) {
            try {
                physical.close();
            } catch (SQLException ignored) {
                // gone
            }
        }
    }

    private Connection handle(Connection physical, boolean returnOnClose) {
        boolean[] closed = {false};
        return (Connection) Proxy.newProxyInstance(
                JtaDataSource.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close" -> {
                            if (!closed[0]) {
                                closed[0] = true;
                                if (returnOnClose) {
                                    giveBack(physical);
                                }
                            }
                            return null;
                        }
                        case "isClosed" -> {
                            return closed[0] || physical.isClosed();
                        }
                        case "setAutoCommit", "commit", "rollback" -> {
                            if (!returnOnClose) {
                                throw new SQLException(
                                        method.getName() + " on a connection enlisted in a JTA transaction");
                            }
                        }
                        default -> {}
                    }
                    try {
                        return method.invoke(physical, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Closes the idle connections. */
    public void close() {
        for (Connection c; (c = idle.pollFirst()) != null; ) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // gone
            }
        }
    }

    /** One-phase commit over the connection's local transaction. */
    private static final class LocalXaResource implements XAResource {
        private final Connection c;

        LocalXaResource(Connection c) {
            this.c = c;
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            try {
                c.commit();
            } catch (SQLException e) {
                throw (XAException) new XAException(XAException.XAER_RMERR).initCause(e);
            }
        }

        @Override
        public void rollback(Xid xid) throws XAException {
            try {
                c.rollback();
            } catch (SQLException e) {
                throw (XAException) new XAException(XAException.XAER_RMERR).initCause(e);
            }
        }

        @Override
        public int prepare(Xid xid) {
            return XA_OK;
        }

        @Override
        public void start(Xid xid, int flags) {}

        @Override
        public void end(Xid xid, int flags) {}

        @Override
        public void forget(Xid xid) {}

        @Override
        public Xid[] recover(int flag) {
            return new Xid[0];
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return other == this;
        }

        @Override
        public int getTransactionTimeout() {
            return 0;
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            return false;
        }
    }
}
