package com.example.ci;

import java.sql.SQLException;

public class TrackingLoop {

    public interface Build {
        long id();        // builds.id is a bigint column
        void track();
    }

    private final BuildTrackingLocks locks;

    public TrackingLoop(BuildTrackingLocks locks) {
        this.locks = locks;
    }

    public void tick(Iterable<Build> runningBuilds) throws SQLException {
        for (Build build : runningBuilds) {
            if (!locks.tryAcquire(build.id())) {
                continue;                      // another web node tracks it
            }
            try {
                build.track();
            } finally {
                locks.release(build.id());
            }
        }
    }
}
