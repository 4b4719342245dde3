package com.example.daemon;

/** Settings of the projection daemon. */
public record DaemonOptions(long daemonLockId, int pollingIntervalMillis) {

    /** The lock id every node of one deployment shares. */
    public static final long DEFAULT_DAEMON_LOCK_ID = 4444L;

    public static DaemonOptions defaults() {
        return new DaemonOptions(DEFAULT_DAEMON_LOCK_ID, 5_000);
    }
}
