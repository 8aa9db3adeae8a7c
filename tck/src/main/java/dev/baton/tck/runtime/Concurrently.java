package dev.baton.tck.runtime;

import dev.baton.tck.Together;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** Fires requests from many client threads at once. */
public final class Concurrently {

    private Concurrently() {}

    /** Runs {@code request} on {@code callers} threads released together; returns every response. */
    public static List<Http.Response> send(int callers, Supplier<Http.Response> request) {
        return send(callers, caller -> request.get());
    }

    /**
     * Runs {@code request}, given each caller's index (from 0), on {@code callers} threads released together;
     * returns every response, by caller index.
     */
    public static List<Http.Response> send(int callers, IntFunction<Http.Response> request) {
        try {
            return Together.call(callers, RuntimeTck.scaled(Duration.ofSeconds(120)), request::apply);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("a concurrent request failed", e);
        }
    }
}
