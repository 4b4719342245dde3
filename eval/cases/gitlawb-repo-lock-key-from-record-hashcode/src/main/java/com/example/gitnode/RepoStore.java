// Case: Gitlawb's node derived the per-repository advisory-lock key from the language runtime's default hasher, whose algorithm is not promised to stay the same between releases: two nodes built differently compute different keys for one (owner, repo) and no longer exclude each other's writes on the shared database.
// Source: https://github.com/Gitlawb/node/issues/210
// Kind: bug
// Expected: the key is a record's hashCode(), whose algorithm the JDK leaves unspecified (java.lang.Record: "subject to change"), 32 bits wide and widened to bigint: nodes on different JDKs can disagree on the key for one repository, and two repositories collide far sooner than a 64-bit key would. Derive the key from a specified digest (SHA-256 folded to 64 bits) of the owner and the name.
package com.example.gitnode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

public class RepoStore {

    private static final Duration ACQUIRE_DEADLINE = Duration.ofSeconds(60);

    /** One repository on this node; the pair is what "the same repository" means across machines. */
    public record RepoRef(String ownerSlug, String repoName) {
    }

    private final DataSource lockPool;   // small pool used only for write locks

    public RepoStore(DataSource lockPool) {
        this.lockPool = lockPool;
    }

    static long advisoryLockKey(RepoRef repo) {
        return repo.hashCode();
    }

    /** Serialises pushes to one repository across every node sharing the database. */
    public RepoWriteGuard acquireWrite(RepoRef repo) throws SQLException, InterruptedException {
        long key = advisoryLockKey(repo);
        Connection conn = lockPool.getConnection();
        try {
            Instant deadline = Instant.now().plus(ACQUIRE_DEADLINE);
            while (true) {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) { // want: weak-lock-key-hash
                    ps.setLong(1, key);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next() && rs.getBoolean(1)) {
                            return new RepoWriteGuard(conn, key);
                        }
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("could not acquire the write lock for " + repo + " after 60s");
                }
                Thread.sleep(1_000L);
            }
        } catch (SQLException | RuntimeException | InterruptedException e) {
            conn.close();
            throw e;
        }
    }
}
