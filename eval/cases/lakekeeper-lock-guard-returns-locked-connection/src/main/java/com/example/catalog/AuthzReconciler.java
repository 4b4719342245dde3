package com.example.catalog;

import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.stereotype.Service;

@Service
public class AuthzReconciler {

    private static final long RECONCILE_LOCK_NAMESPACE = 0x4c4b_0000_0000L;

    private final DataSource dataSource;

    public AuthzReconciler(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Called when a warehouse's permissions change; returns false when another replica is already on it. */
    public boolean reconcileWarehouse(UUID warehouseId, int warehouseSequence) throws SQLException {
        Optional<PostgresAdvisoryLock> lock =
                PostgresAdvisoryLock.tryAcquire(dataSource, RECONCILE_LOCK_NAMESPACE | warehouseSequence);
        if (lock.isEmpty()) {
            return false;
        }
        try (PostgresAdvisoryLock held = lock.get()) {
            writeMissingTuples(warehouseId);
        }
        return true;
    }

    private void writeMissingTuples(UUID warehouseId) {
        // writes the missing relationship tuples to the authorization backend
    }
}
