package dev.baton.jpa.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The one listening connection of a JPA lock store on PostgreSQL: a connection of the store's persistence
 * unit, in auto-commit mode, that {@code LISTEN}s on the table's {@link ReleaseChannel} and hands each
 * released key to the registered listeners, on a thread of its own.
 *
 * <p>The thread blocks in pgjdbc's {@code PGConnection.getNotifications(timeout)} (a blocking socket read,
 * no sleep loop), so a notification is handed on as soon as it arrives. Once one has arrived, pgjdbc looks
 * for more with a socket read of up to 1 ms ({@code PGStream.hasMessagePending}); it means to do that at most
 * once a second, but a read that times out does not set the time of the next one (pgjdbc 42.7.x), so every
 * notification waits the millisecond out (measured: 1.4 to 2.4 ms to hand over a notification already in
 * the socket, against 0.05 to 0.1 ms without that read). On this connection alone, which nothing else uses,
 * the extra read is switched off by setting the stream's {@code nextStreamAvailableCheckTime} to the end of
 * time (by reflection; if the driver's internals differ, it is left as it is): notifications that arrived
 * together are still handed over together from the buffer, and any later one by the next blocking read,
 * at once. When the connection drops, the
 * thread connects again with a growing pause ({@value #MIN_BACKOFF_MILLIS} ms doubling to
 * {@value #MAX_BACKOFF_MILLIS} ms); notifications sent meanwhile are lost, which the SPI allows: the
 * runtime keeps polling. A silent connection is checked with {@code SELECT 1} every
 * {@value #IDLE_CHECK_MILLIS} ms, so a connection cut without a reset is noticed too.
 *
 * <p>The connection may be a server pool's (a data source of the application server): the listener never
 * closes or aborts the session under it. It ends with {@code UNLISTEN *} and goes back to its pool, which
 * may lend it again; a broken one goes back as it is, for the pool to find broken. When pgjdbc cannot be
 * reached through the connection (the driver is the server's, not visible to the application, or the pool's
 * wrapper refuses {@code unwrap}), notifications cannot work on this data source: the listener says so once
 * and stops, and {@link #add} refuses, so the runtime polls.
 */
public final class ReleaseListener implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ReleaseListener.class.getName());

    static final long MIN_BACKOFF_MILLIS = 50;
    static final long MAX_BACKOFF_MILLIS = 5_000;
    /** How long one read waits for a notification before the thread looks at its state again (at close). */
    private static final int READ_MILLIS = 200;

    static final long IDLE_CHECK_MILLIS = 10_000;

    private final DedicatedConnection.Source lender;
    private final String channel;
    private final long timeoutMillis;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private Thread thread;
    private DedicatedConnection current;
    private boolean listening;
    private boolean closed;
    /** Set when notifications cannot work through this data source (see {@link Unsupported}). */
    private String unsupported;

    private long connections;

    /**
     * @param connections lends the listening connection (the persistence unit's pool or the data source)
     * @param channel the channel (see {@link ReleaseChannel})
     * @param timeoutMillis how long {@link #add} waits for the {@code LISTEN}, and the bound of the idle check
     */
    public ReleaseListener(DedicatedConnection.Source connections, String channel, long timeoutMillis) {
        this.lender = connections;
        this.channel = channel;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Registers a listener; starts listening if this is the first one, and waits for the {@code LISTEN} to be
     * in place at most the store's statement timeout (if it is not by then, it logs a warning and the
     * thread goes on trying: waiters poll meanwhile).
     *
     * @param listener told each released key, on the listening thread; must not block
     * @return the handle that removes the listener
     * @throws UnsupportedOperationException if notifications cannot work through this data source
     */
    public AutoCloseable add(Consumer<String> listener) {
        listeners.add(listener);
        lock.lock();
        try {
            if (closed) {
                listeners.remove(listener);
                throw new IllegalStateException("The release listener is closed");
            }
            refuseIfUnsupported(listener);
            if (thread == null) {
                thread = new Thread(this::run, "baton-jpa-release-listener[" + channel + "]");
                thread.setDaemon(true);
                thread.start();
            }
            long left = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (!listening && !closed && unsupported == null && left > 0) {
                left = changed.awaitNanos(left);
            }
            refuseIfUnsupported(listener);
            if (!listening && !closed) {
                JpaMessage.NOT_LISTENING.log(LOG, channel, timeoutMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
        return () -> listeners.remove(listener);
    }

    /** Under the lock. */
    private void refuseIfUnsupported(Consumer<String> listener) {
        if (unsupported != null) {
            listeners.remove(listener);
            throw new UnsupportedOperationException(unsupported);
        }
    }

    /** @return whether the {@code LISTEN} is in place on a live connection now */
    public boolean listening() {
        lock.lock();
        try {
            return listening;
        } finally {
            lock.unlock();
        }
    }

    /** @return how many connections listened so far (1 plus the reconnections); for tests */
    public long connections() {
        lock.lock();
        try {
            return connections;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the thread, which gives its connection back within a read ({@value #READ_MILLIS} ms) and a
     * round trip; waits for it at most the timeout. Idempotent.
     */
    @Override
    public void close() {
        Thread t;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            t = thread;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(timeoutMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        long backoff = MIN_BACKOFF_MILLIS;
        while (!isClosed()) {
            DedicatedConnection dc = null;
            Notifications pg = null;
            try {
                dc = lender.take();
                pg = Notifications.of(dc.connection(), true);
                try (Statement st = dc.connection().createStatement()) {
                    st.execute("LISTEN \"" + channel + "\"");
                }
                if (!listeningOn(dc)) {
                    return;
                }
                backoff = MIN_BACKOFF_MILLIS;
                receive(dc.connection(), pg);
            } catch (Unsupported e) {
                unsupported(e.getMessage());
                return;
            } catch (SQLException | RuntimeException e) {
                if (isClosed()) {
                    break;
                }
                JpaMessage.LISTENING_INTERRUPTED.logWithCause(LOG, e, channel, e, backoff);
            } finally {
                lock.lock();
                try {
                    listening = false;
                    current = null;
                } finally {
                    lock.unlock();
                }
                if (dc != null) {
                    endListening(dc, pg);
                }
            }
            pause(backoff);
            backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
        }
    }

    private void unsupported(String why) {
        lock.lock();
        try {
            unsupported = "Release notifications on channel " + channel + " cannot work: " + why;
            listeners.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        JpaMessage.NOTIFICATIONS_OFF.log(LOG, channel, why);
    }

    /**
     * Gives the connection back to its pool no longer listening ({@code UNLISTEN *}, pgjdbc's read for more
     * back as it was). Never closes or aborts it: a server's pool would lend the closed session
     * again. If the round trip fails, the session is broken already and goes back as it is.
     */
    private void endListening(DedicatedConnection dc, Notifications pg) {
        Connection c = dc.connection();
        if (pg != null) {
            pg.extraReadBack();
        }
        try {
            c.setNetworkTimeout(Runnable::run, (int)
                    Math.min(Integer.MAX_VALUE, timeoutMillis + CallBound.NETWORK_ALLOWANCE_MILLIS));
            try (Statement st = c.createStatement()) {
                st.execute("UNLISTEN *");
            }
            c.setNetworkTimeout(Runnable::run, 0);
        } catch (SQLException | RuntimeException e) {
            // broken: its pool finds it so
        }
        dc.giveBack();
    }

    private boolean listeningOn(DedicatedConnection dc) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            current = dc;
            listening = true;
            connections++;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void receive(Connection c, Notifications pg) throws SQLException {
        long lastHeard = System.nanoTime();
        while (!isClosed()) {
            List<Notifications.Note> notes = pg.read(READ_MILLIS);
            if (!notes.isEmpty()) {
                lastHeard = System.nanoTime();
                for (Notifications.Note note : notes) {
                    if (channel.equals(note.channel())) {
                        deliver(note.payload());
                    }
                }
            } else if (System.nanoTime() - lastHeard > TimeUnit.MILLISECONDS.toNanos(IDLE_CHECK_MILLIS)) {
                c.setNetworkTimeout(Runnable::run, (int)
                        Math.min(Integer.MAX_VALUE, timeoutMillis + CallBound.NETWORK_ALLOWANCE_MILLIS));
                try (Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                }
                c.setNetworkTimeout(Runnable::run, 0);
                lastHeard = System.nanoTime();
            }
        }
    }

    private void deliver(String key) {
        for (Consumer<String> listener : listeners) {
            try {
                listener.accept(key);
            } catch (RuntimeException e) {
                JpaMessage.LISTENER_FAILED.logWithCause(LOG, e);
            }
        }
    }

    private boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    private void pause(long millis) {
        lock.lock();
        try {
            long left = TimeUnit.MILLISECONDS.toNanos(millis);
            while (!closed && left > 0) {
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    /** Notifications cannot work through this connection: pgjdbc is not reachable through it. */
    static final class Unsupported extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message);
        }
    }

    /**
     * pgjdbc's notification API, found on the connection by reflection: the module does not depend on the
     * driver, which the application brings (and may load in a class loader of its own).
     */
    record Notifications(Object connection, Method read, Method channel, Method payload) {

        record Note(String channel, String payload) {}

        /**
         * @param c a pgjdbc connection, possibly wrapped by a pool
         * @param noExtraRead switch off pgjdbc's 1 ms read for more after each notification (see the class comment)
         */
        static Notifications of(Connection c, boolean noExtraRead) {
            String refused = "";
            for (ClassLoader loader : new ClassLoader[] {
                c.getClass().getClassLoader(),
                Thread.currentThread().getContextClassLoader(),
                ReleaseListener.class.getClassLoader()
            }) {
                try {
                    Class<?> type = Class.forName("org.postgresql.PGConnection", false, loader);
                    Object pg;
                    try {
                        if (!c.isWrapperFor(type)) {
                            continue;
                        }
                        pg = c.unwrap(type);
                    } catch (SQLException e) {
                        refused = " (unwrap refused: " + e.getMessage() + ")";
                        continue;
                    }
                    Class<?> note = Class.forName("org.postgresql.PGNotification", false, type.getClassLoader());
                    if (noExtraRead) {
                        noExtraRead(pg);
                    }
                    return new Notifications(
                            pg,
                            type.getMethod("getNotifications", int.class),
                            note.getMethod("getName"),
                            note.getMethod("getParameter"));
                } catch (ClassNotFoundException | NoSuchMethodException e) {
                    // not this loader
                }
            }
            throw new Unsupported(
                    "they need the PostgreSQL JDBC driver (pgjdbc 42.x) through the connection, which is a "
                            + c.getClass().getName() + " that does not unwrap to org.postgresql.PGConnection in the"
                            + " application's class loaders" + refused);
        }

        /**
         * pgjdbc 42.x: {@code ((BaseConnection) pg).getQueryExecutor().pgStream.nextStreamAvailableCheckTime =
         * Long.MAX_VALUE}, so {@code hasMessagePending} answers from the buffer alone.
         *
         * @return whether it was switched off
         */
        static boolean noExtraRead(Object pg) {
            return nextCheck(pg, Long.MAX_VALUE);
        }

        /** Gives the connection pgjdbc's read for more back (its initial state) before it goes back to its pool. */
        void extraReadBack() {
            nextCheck(connection, 0);
        }

        private static boolean nextCheck(Object pg, long time) {
            try {
                Object executor = pg.getClass().getMethod("getQueryExecutor").invoke(pg);
                Object stream = field(executor, "pgStream").get(executor);
                field(stream, "nextStreamAvailableCheckTime").setLong(stream, time);
                return true;
            } catch (ReflectiveOperationException | RuntimeException e) {
                JpaMessage.PGJDBC_READ_STAYS.log(LOG, e);
                return false;
            }
        }

        private static java.lang.reflect.Field field(Object on, String name) throws NoSuchFieldException {
            for (Class<?> type = on.getClass(); type != null; type = type.getSuperclass()) {
                try {
                    java.lang.reflect.Field field = type.getDeclaredField(name);
                    field.setAccessible(true);
                    return field;
                } catch (NoSuchFieldException e) {
                    // look in the superclass
                }
            }
            throw new NoSuchFieldException(on.getClass().getName() + "." + name);
        }

        /** Blocks until at least one notification arrived or {@code millis} passed. */
        List<Note> read(int millis) throws SQLException {
            try {
                Object[] notes = (Object[]) read.invoke(connection, millis);
                if (notes == null || notes.length == 0) {
                    return List.of();
                }
                Note[] out = new Note[notes.length];
                for (int i = 0; i < notes.length; i++) {
                    out[i] = new Note((String) channel.invoke(notes[i]), (String) payload.invoke(notes[i]));
                }
                return List.of(out);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof SQLException sql) {
                    throw sql;
                }
                throw new IllegalStateException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
