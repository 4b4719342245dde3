// Case: Gitlawb's fix for its unstable repository lock key: the key is now the first eight bytes of a SHA-256 digest of "owner:repo", so every node, whatever it was built with, computes the same 64-bit key.
// Source: https://github.com/Gitlawb/node/pull/215
// Kind: correct
// Expected: nothing to report: the key is a specified 64-bit digest of both parts with a separator that neither part may contain, the try-lock result is tested, the lock lives on a connection pinned by the guard until its close() unlocks it there and checks the result.
package com.example.gitnode;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

    /** Stable across builds and JDKs: owner slugs and repository names never contain ':'. */
    static long advisoryLockKey(RepoRef repo) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha256.digest((repo.ownerSlug() + ":" + repo.repoName()).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /** Serialises pushes to one repository across every node sharing the database. */
    public RepoWriteGuard acquireWrite(RepoRef repo) throws SQLException, InterruptedException {
        long key = advisoryLockKey(repo);
        Connection conn = lockPool.getConnection();
        try {
            Instant deadline = Instant.now().plus(ACQUIRE_DEADLINE);
            while (true) {
                try (PreparedStatement ps = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
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
