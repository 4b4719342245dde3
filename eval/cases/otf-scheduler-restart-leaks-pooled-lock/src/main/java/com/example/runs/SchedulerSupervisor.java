package com.example.runs;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Keeps the scheduler running: an error stops it, and it is started again after a short pause. */
public class SchedulerSupervisor {

    private static final Logger LOG = Logger.getLogger(SchedulerSupervisor.class.getName());

    private final RunScheduler scheduler;
    private volatile boolean stopped;

    public SchedulerSupervisor(RunScheduler scheduler) {
        this.scheduler = scheduler;
    }

    public void runForever() throws InterruptedException {
        while (!stopped) {
            try {
                scheduler.start();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "scheduler stopped, restarting", e);
                Thread.sleep(5_000);
            }
        }
    }

    public void stop() {
        stopped = true;
        scheduler.stop();
    }
}
