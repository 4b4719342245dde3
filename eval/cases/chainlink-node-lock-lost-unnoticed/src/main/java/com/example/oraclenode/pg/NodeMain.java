package com.example.oraclenode.pg;

import java.time.Duration;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Boots a node: wait for the database lock (standbys wait here), then start the services that submit transactions,
 * and keep them running until the process is asked to stop.
 */
public final class NodeMain {

    private static final Logger log = LoggerFactory.getLogger(NodeMain.class);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

    /** The job runners, the transaction manager and the head tracker; they use the application's own pool. */
    public interface Services {
        void start() throws Exception;

        void stop();
    }

    private final DatabaseLock lock;
    private final Services services;
    private final CountDownLatch stopRequested = new CountDownLatch(1);

    public NodeMain(DatabaseLock lock, Services services) {
        this.lock = lock;
        this.services = services;
    }

    public static void main(String[] args) throws Exception {
        Properties credentials = new Properties();
        credentials.setProperty("user", System.getenv("DATABASE_USER"));
        credentials.setProperty("password", System.getenv("DATABASE_PASSWORD"));
        DatabaseLock lock = new DatabaseLock(System.getenv("DATABASE_URL"), credentials, Duration.ofSeconds(1));
        Services services = ServiceLoader.load(Services.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("no node services on the class path"));
        NodeMain node = new NodeMain(lock, services);
        Thread mainThread = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.requestStop();
            try {
                mainThread.join(SHUTDOWN_GRACE.toMillis()); // let run() stop the services and release the lock
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "node-shutdown"));
        node.run();
    }

    public void run() throws Exception {
        lock.takeAndHold();
        try {
            log.info("Holding the database lock, starting services");
            services.start();
            stopRequested.await();
        } finally {
            services.stop();
            lock.release();
        }
    }

    public void requestStop() {
        stopRequested.countDown();
    }
}
