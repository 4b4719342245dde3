package io.github.pgadvisorylint.core.analysis;

import io.github.pgadvisorylint.core.diagnostic.Notification;
import io.github.pgadvisorylint.core.diagnostic.Severity;
import io.github.pgadvisorylint.core.discovery.DiscoveredFile;
import io.github.pgadvisorylint.core.source.SourceRegion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The executor of one analysis: runs one task per file on worker threads and gives back each task's
 * result, in the order of the items. What a file contributes never depends on time: the only clock is
 * the wall-clock safety limit, and a task that runs past it stops the whole analysis with a
 * {@link TimeLimitExceededException} naming the file, instead of leaving the file out on a slow or
 * loaded machine. Tasks return values and share no mutable state. Only the thread that calls
 * {@link #map} writes the record of skipped files (a task that failed).
 *
 * <p>Workers are daemon threads with large stacks ({@link AnalysisRun#WORKER_STACK_BYTES}): JavaParser
 * and JSqlParser recurse once per nesting level, and a task still running when the limit stops the
 * analysis never keeps the JVM alive. Close it when done.
 */
final class FileTasks implements AutoCloseable {

    private final ThreadPoolExecutor pool;
    private final long limitNanos;
    /** Files left out (a task failed): why, by relative path. Written by the caller's thread only. */
    private final Map<String, Notification> skipped = new TreeMap<>();
    /** Test seam: runs first in every task, on the worker, with the file's relative path. */
    private final Consumer<String> beforeTask;

    /**
     * @param threads     worker threads (at least 1)
     * @param limitNanos how long one file's task may run before the analysis stops (nanoseconds)
     * @param beforeTask runs first in every task with the file's relative path (a no-op in production)
     */
    FileTasks(int threads, long limitNanos, Consumer<String> beforeTask) {
        this.limitNanos = limitNanos;
        this.beforeTask = beforeTask;
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(null, r, "pg-advisory-lint-worker", AnalysisRun.WORKER_STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
    }

    /** @return whether a file (relative path) was left out in some phase */
    boolean isSkipped(String relativePath) {
        return skipped.containsKey(relativePath);
    }

    /** @return why a file was left out, or null */
    Notification whySkipped(String relativePath) {
        return skipped.get(relativePath);
    }

    /** Leaves a file out of every later phase, for the reason given (the first reason stays). */
    void skip(String relativePath, Notification why) {
        skipped.putIfAbsent(relativePath, why);
    }

    /** @return the files left out so far, by relative path, sorted */
    Map<String, Notification> skipped() {
        return new TreeMap<>(skipped);
    }

    /**
     * Applies a function to every item on the workers, keeping order. Items whose file was left out
     * before are not run. A task that throws gives its file an {@code internal-error} notification (an
     * {@link Error} other than {@link StackOverflowError} is rethrown); its result is null and its file is
     * left out from then on.
     *
     * @param fileOf the file an item stands for
     * @param fn     the task: must not write state shared with other tasks
     * @return one result per item (null for an item not run or failed)
     * @throws TimeLimitExceededException when a task runs past the time limit (every task is cancelled)
     */
    <T, R> List<R> map(List<T> items, Function<T, DiscoveredFile> fileOf, Function<T, R> fn) {
        List<Task<R>> tasks = new ArrayList<>();
        for (T item : items) {
            Task<R> task = new Task<>(fileOf.apply(item));
            tasks.add(task);
            if (skipped.containsKey(task.file.relativePath())) {
                continue;
            }
            task.future = pool.submit(() -> {
                task.startedNanos = System.nanoTime();
                task.started = true;
                beforeTask.accept(task.file.relativePath());
                return fn.apply(item);
            });
        }
        long poll = Math.max(1, Math.min(limitNanos / 4, 100_000_000L));
        List<R> out = new ArrayList<>();
        for (Task<R> task : tasks) {
            R result = null;
            while (task.future != null) {
                try {
                    result = task.future.get(poll, TimeUnit.NANOSECONDS);
                    break;
                } catch (TimeoutException e) {
                    stopIfOverdue(tasks);
                } catch (CancellationException e) {
                    break;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Error err && !(cause instanceof StackOverflowError)) {
                        throw err;
                    }
                    skip(task.file.relativePath(), failure(task.file.relativePath(), cause));
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            out.add(result);
        }
        return out;
    }

    /** Stops the analysis when a started, unfinished task has run past the limit: every task is cancelled. */
    private <R> void stopIfOverdue(List<Task<R>> tasks) {
        long now = System.nanoTime();
        for (Task<R> t : tasks) {
            if (t.future != null && t.started && !t.future.isDone() && now - t.startedNanos >= limitNanos) {
                tasks.forEach(other -> {
                    if (other.future != null) {
                        other.future.cancel(true);
                    }
                });
                throw new TimeLimitExceededException(t.file.relativePath(), Duration.ofNanos(limitNanos));
            }
        }
    }

    /** @return the {@code internal-error} notification of a file whose analysis threw */
    static Notification failure(String relativePath, Throwable t) {
        return new Notification(
                Severity.ERROR,
                "internal-error",
                "analysis of this file failed: " + t,
                SourceRegion.line(relativePath, 1));
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** One file's task in one phase: when it started, so one over the limit can be found. */
    private static final class Task<R> {
        final DiscoveredFile file;
        volatile long startedNanos;
        volatile boolean started;
        Future<R> future;

        Task(DiscoveredFile file) {
            this.file = file;
        }
    }
}
