package com.example.encryption;

import java.sql.SQLException;
import java.util.Optional;

public class EncryptionMigrationWorker {

    private final EncryptionMigrationLocker locker;
    private final SecretReencrypter reencrypter;

    public EncryptionMigrationWorker(EncryptionMigrationLocker locker, SecretReencrypter reencrypter) {
        this.locker = locker;
        this.reencrypter = reencrypter;
    }

    /** Re-encrypts one batch of one kind in one organization; the next batch is enqueued by the caller. */
    public boolean runBatch(String kind, String orgId) throws SQLException {
        Optional<EncryptionMigrationLocker.Lease> lease = locker.tryLock(leaseKey(kind, orgId));
        if (lease.isEmpty()) {
            return false;                    // another replica is migrating this kind/org
        }
        try (EncryptionMigrationLocker.Lease held = lease.get()) {
            reencrypter.reencryptNextBatch(kind, orgId);
            return true;
        }
    }

    static String leaseKey(String kind, String orgId) {
        return "encryption-migration/" + kind + "/" + orgId;
    }

    public interface SecretReencrypter {
        void reencryptNextBatch(String kind, String orgId);
    }
}
