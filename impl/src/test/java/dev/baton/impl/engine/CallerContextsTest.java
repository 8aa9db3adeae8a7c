package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The context of a server that keeps its requests' state beside the thread (Helidon's) is captured on the caller's
 * thread and entered on the thread that finishes the call; without such a server, or without a context, tasks run as
 * they are; a task always runs exactly once.
 */
class CallerContextsTest {

    private static final CallerContexts SERVER = CallerContexts.find(
            CallerContextsTest.class.getClassLoader(),
            RequestContexts.class.getName(),
            RequestContexts.Context.class.getName());

    private final ExecutorService batonThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        RequestContexts.refuse = false;
        batonThread.shutdownNow();
        assertThat(batonThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theCallersContextIsEnteredOnTheThreadThatFinishesTheCallAndLeftAfterIt() {
        RequestContexts.Context request = new RequestContexts.Context("request 1");
        CallerContexts.Captured[] captured = new CallerContexts.Captured[1];
        RequestContexts.runInContext(request, () -> captured[0] = SERVER.captureHere());

        CompletableFuture<Optional<RequestContexts.Context>> inside = new CompletableFuture<>();
        CompletableFuture<Optional<RequestContexts.Context>> after = CompletableFuture.supplyAsync(
                () -> {
                    captured[0].run(() -> inside.complete(RequestContexts.context()));
                    return RequestContexts.context();
                },
                batonThread);

        assertThat(inside.join()).as("inside the captured context").contains(request);
        assertThat(after.join())
                .as("the finishing thread's own context afterwards")
                .isEmpty();
    }

    @Test
    void aCallerWithoutAContextCapturesNothing() {
        assertThat(SERVER.captureHere()).isSameAs(CallerContexts.NOTHING);
    }

    @Test
    void withoutTheServersClassesNothingIsCapturedAndTasksRunAsTheyAre() {
        CallerContexts none =
                CallerContexts.find(CallerContextsTest.class.getClassLoader(), "no.such.Contexts", "no.such.Context");
        AtomicInteger runs = new AtomicInteger();

        RequestContexts.runInContext(
                new RequestContexts.Context("request 2"),
                () -> none.captureHere().run(runs::incrementAndGet));

        assertThat(runs).hasValue(1);
        assertThat(CallerContexts.capture())
                .as("the runtime's own, where Helidon is absent (these tests)")
                .isSameAs(CallerContexts.NOTHING);
    }

    @Test
    void aContextThatCannotBeEnteredStillRunsTheTaskOnce() {
        CallerContexts.Captured[] captured = new CallerContexts.Captured[1];
        RequestContexts.runInContext(
                new RequestContexts.Context("request 3"), () -> captured[0] = SERVER.captureHere());
        RequestContexts.refuse = true;
        AtomicInteger runs = new AtomicInteger();

        captured[0].run(runs::incrementAndGet);

        assertThat(runs).as("a completion is never lost").hasValue(1);
    }

    @Test
    void theTasksOwnFailureReachesTheCaller() {
        CallerContexts.Captured[] captured = new CallerContexts.Captured[1];
        RequestContexts.runInContext(
                new RequestContexts.Context("request 4"), () -> captured[0] = SERVER.captureHere());
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> captured[0].run(() -> {
                    runs.incrementAndGet();
                    throw new IllegalArgumentException("the task's");
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the task's");
        assertThat(runs).as("run once, not again after its failure").hasValue(1);
    }
}
