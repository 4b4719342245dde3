package com.example.controlplane;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/** The background work only the leader runs: health probes of every configured model endpoint. */
@Component
public class ProbeScheduler {

    private final TaskScheduler taskScheduler;
    private final EndpointProber prober;
    private ScheduledFuture<?> probes;

    public ProbeScheduler(TaskScheduler taskScheduler, EndpointProber prober) {
        this.taskScheduler = taskScheduler;
        this.prober = prober;
    }

    /** Loads the endpoint list and starts probing; throws when the list cannot be loaded. */
    public synchronized void onGainLeadership() {
        prober.reloadEndpoints();
        probes = taskScheduler.scheduleAtFixedRate(prober::probeAll, Duration.ofSeconds(15));
    }

    public synchronized void onLoseLeadership() {
        if (probes != null) {
            probes.cancel(false);
            probes = null;
        }
    }

    public interface EndpointProber {
        void reloadEndpoints();

        void probeAll();
    }
}
