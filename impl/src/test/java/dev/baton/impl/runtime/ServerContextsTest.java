package dev.baton.impl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.impl.engine.CallerContext;
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
class ServerContextsTest {

    private static final ServerContexts SERVER = ServerContexts.find(
            ServerContextsTest.class.getClassLoader(),
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
        CallerContext.Captured[] captured = new CallerContext.Captured[1];
        RequestContexts.runInContext(request, () -> captured[0] = SERVER.capture());

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
        assertThat(SERVER.capture()).isSameAs(ServerContexts.NOTHING);
    }

    @Test
    void withoutTheServersClassesNothingIsCapturedAndTasksRunAsTheyAre() {
        ServerContexts none =
                ServerContexts.find(ServerContextsTest.class.getClassLoader(), "no.such.Contexts", "no.such.Context");
        AtomicInteger runs = new AtomicInteger();

        RequestContexts.runInContext(
                new RequestContexts.Context("request 2"), () -> none.capture().run(runs::incrementAndGet));

        assertThat(runs).hasValue(1);
        assertThat(ServerContexts.CURRENT.capture())
                .as("the runtime's own, where Helidon is absent (these tests)")
                .isSameAs(ServerContexts.NOTHING);
    }

    @Test
    void aContextThatCannotBeEnteredStillRunsTheTaskOnce() {
        CallerContext.Captured[] captured = new CallerContext.Captured[1];
        RequestContexts.runInContext(new RequestContexts.Context("request 3"), () -> captured[0] = SERVER.capture());
        RequestContexts.refuse = true;
        AtomicInteger runs = new AtomicInteger();

        captured[0].run(runs::incrementAndGet);

        assertThat(runs).as("a completion is never lost").hasValue(1);
    }

    @Test
    void theTasksOwnFailureReachesTheCaller() {
        CallerContext.Captured[] captured = new CallerContext.Captured[1];
        RequestContexts.runInContext(new RequestContexts.Context("request 4"), () -> captured[0] = SERVER.capture());
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
