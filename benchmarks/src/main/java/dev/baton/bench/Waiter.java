package dev.baton.bench;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * The other side of a hand-off: someone who waits for the key while the benchmark thread holds it. Runs
 * on a thread of its own (a thread of this JVM, whatever engine or connection it uses) or, for the
 * second-JVM scenario, in {@link HandOffPeer}.
 */
interface Waiter extends AutoCloseable {

    /** Starts acquiring; returns once the waiter is inside its acquire call. */
    void startWaiting();

    /** Returns once the waiter holds the key. */
    void awaitHolding();

    /** The waiter gives the key back; returns when it has. */
    void release();

    @Override
    void close();

    /** Waits for a volatile condition without a context switch first, then politely (2 busy cores). */
    static void spinUntil(java.util.function.BooleanSupplier done) {
        int spins = 0;
        while (!done.getAsBoolean()) {
            if (++spins < 2_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /**
     * A waiter that holds no thread ({@code acquireAsync}): it waits from the start of its acquisition, and holds the
     * key once the future has completed; the benchmark thread gives the key back.
     */
    final class Async implements Waiter {
        private final Supplier<? extends CompletableFuture<? extends AutoCloseable>> acquire;
        private CompletableFuture<? extends AutoCloseable> waiting;

        Async(Supplier<? extends CompletableFuture<? extends AutoCloseable>> acquire) {
            this.acquire = acquire;
        }

        @Override
        public void startWaiting() {
            waiting = acquire.get();
        }

        @Override
        public void awaitHolding() {
            spinUntil(waiting::isDone);
            held();
        }

        private AutoCloseable held() {
            try {
                return waiting.join();
            } catch (CompletionException | CancellationException e) {
                throw new IllegalStateException("the waiter failed", e);
            }
        }

        @Override
        public void release() {
            try {
                held().close();
            } catch (Exception e) {
                throw new IllegalStateException("the waiter's release failed", e);
            } finally {
                waiting = null;
            }
        }

        @Override
        public void close() {
            if (waiting != null) {
                waiting.cancel(false); // a lock granted meanwhile is given back by the engine
            }
        }
    }

    /** A waiter on a thread of this JVM; {@code acquire} blocks until it holds and returns what releases. */
    final class OnThread implements Waiter {
        private final Semaphore goAcquire = new Semaphore(0);
        private final Semaphore goRelease = new Semaphore(0);
        private final Thread thread;
        private volatile int state; // 0 idle, 1 acquiring, 2 holding
        private volatile Throwable failure;

        OnThread(String name, Callable<AutoCloseable> acquire) {
            thread = new Thread(
                    () -> {
                        try {
                            while (true) {
                                goAcquire.acquire();
                                state = 1;
                                AutoCloseable held = acquire.call();
                                state = 2;
                                goRelease.acquire();
                                held.close();
                                state = 0;
                            }
                        } catch (InterruptedException e) {
                            // closed
                        } catch (Throwable e) {
                            failure = e;
                            state = -1;
                        }
                    },
                    name);
            thread.setDaemon(true);
            thread.start();
        }

        private void check() {
            if (failure != null) {
                throw new IllegalStateException("the waiter failed", failure);
            }
        }

        @Override
        public void startWaiting() {
            goAcquire.release();
            spinUntil(() -> state != 0);
            check();
        }

        @Override
        public void awaitHolding() {
            spinUntil(() -> state != 1);
            check();
        }

        @Override
        public void release() {
            goRelease.release();
            spinUntil(() -> state != 2);
            check();
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }
}
