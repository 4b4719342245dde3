package io.github.pgadvisorylint.rules.fuzz;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one try the way the analyzer runs a file: on its own thread with a 256 MiB stack (the
 * analyzer's worker stack, {@code AnalysisRun.WORKER_STACK_BYTES}), so deep nesting meets the limits a
 * real scan has. A safety net against hangs, never a timing assertion: the inputs are small, so a try
 * ends in well under a second, and only a try with no result after {@value #DEFAULT_SECONDS} seconds
 * ({@code -Dfuzz.guard.seconds}) fails, naming the input; its thread is left to run on as a daemon.
 */
final class Guard {

    static final long STACK_BYTES = 256L * 1024 * 1024;
    static final long DEFAULT_SECONDS = 120;

    private Guard() {}

    /** Work that may throw anything. */
    interface Work<T> {
        T run() throws Exception;
    }

    /**
     * @param input what the try was given, for the message of a hang (cut to its first 2,000 characters)
     * @param work  the try
     * @return what the try returned
     * @throws Exception whatever the try threw, unwrapped
     */
    static <T> T call(String input, Work<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(
                null,
                () -> {
                    try {
                        result.complete(work.run());
                    } catch (Throwable t) {
                        result.completeExceptionally(t);
                    }
                },
                "fuzz-try",
                STACK_BYTES);
        thread.setDaemon(true);
        thread.start();
        long seconds = Long.getLong("fuzz.guard.seconds", DEFAULT_SECONDS);
        try {
            return result.get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception x) {
                throw x;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        } catch (TimeoutException e) {
            String shown = input.length() > 2000 ? input.substring(0, 2000) + "…" : input;
            throw new AssertionError(
                    "no result after " + seconds + " s, a hang (the try's thread runs on); input (" + input.length()
                            + " characters):\n" + shown,
                    e);
        }
    }
}
