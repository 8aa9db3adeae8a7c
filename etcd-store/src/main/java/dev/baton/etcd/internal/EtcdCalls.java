package dev.baton.etcd.internal;

import dev.baton.LockStoreException;
import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for jetcd's answers no longer than a call's bound, and reading what a failure says: whether the request
 * may still have been applied ({@link #inDoubt}), and whether it failed because the store's lease is gone
 * ({@link #leaseGone}).
 */
final class EtcdCalls {

    private EtcdCalls() {}

    /** A call that failed: its cause, and whether it failed for want of an answer in time. */
    static final class CallFailed extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean timedOut;

        CallFailed(Throwable cause, boolean timedOut) {
            super(cause);
            this.timedOut = timedOut;
        }

        /** @return whether no answer came in time: the request may yet be applied */
        boolean timedOut() {
            return timedOut;
        }

        /** @return whether the request may have been applied (no answer, or an answer that does not say) */
        boolean inDoubt() {
            return timedOut || EtcdCalls.inDoubt(getCause());
        }

        /** @return whether the server said the lease named by the request does not exist */
        boolean leaseGone() {
            return EtcdCalls.leaseGone(getCause());
        }

        /**
         * @param action what the store tried, for the message
         * @return the failure as the store reports it
         */
        LockStoreException toStoreException(String action) {
            String why = timedOut ? "no answer in time" : describe(getCause());
            return new LockStoreException(action + ": " + why, getCause());
        }
    }

    /**
     * Waits for an answer.
     *
     * @param call the call
     * @param millis how long to wait
     * @return the answer
     * @throws CallFailed if the call failed or did not answer in time
     */
    static <T> T await(CompletableFuture<T> call, long millis) throws CallFailed {
        try {
            return call.get(Math.max(1, millis), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new CallFailed(e, true);
        } catch (ExecutionException | CompletionException e) {
            throw new CallFailed(e.getCause() == null ? e : e.getCause(), false);
        } catch (CancellationException e) {
            throw new CallFailed(e, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallFailed(e, true);
        }
    }

    /**
     * @param failure what a call failed with
     * @return whether its request may still have been applied: anything but a server's refusal of it
     */
    static boolean inDoubt(Throwable failure) {
        String code = code(failure);
        return code == null
                || !(code.equals("INVALID_ARGUMENT")
                        || code.equals("NOT_FOUND")
                        || code.equals("FAILED_PRECONDITION")
                        || code.equals("PERMISSION_DENIED")
                        || code.equals("UNAUTHENTICATED")
                        || code.equals("OUT_OF_RANGE")
                        || code.equals("ALREADY_EXISTS"));
    }

    /**
     * @param failure what a call failed with
     * @return whether the server refused it because the lease it named no longer exists
     */
    static boolean leaseGone(Throwable failure) {
        if (!"NOT_FOUND".equals(code(failure))) {
            return false;
        }
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("lease not found")) {
                return true;
            }
        }
        return false;
    }

    /** The status code of the first etcd or gRPC error in the chain: jetcd reports its calls' failures as either. */
    private static String code(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof EtcdException e) {
                return e.getErrorCode().name();
            }
            if (t instanceof StatusRuntimeException e) {
                return e.getStatus().getCode().name();
            }
            if (t instanceof StatusException e) {
                return e.getStatus().getCode().name();
            }
        }
        return null;
    }

    private static String describe(Throwable failure) {
        String code = code(failure);
        return (code == null ? failure.getClass().getSimpleName() : "etcd answered " + code)
                + (failure.getMessage() == null ? "" : " (" + failure.getMessage() + ")");
    }
}
