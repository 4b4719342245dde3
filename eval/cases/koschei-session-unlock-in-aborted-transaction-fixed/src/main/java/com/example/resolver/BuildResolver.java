// Case: koschei's fix for its build resolver's repository lock: the session-level try-lock is still released in a finally block, but when the unlock fails because a failed statement aborted the transaction, the resolver closes its database session, which makes the server release the lock.
// Source: https://github.com/fedora-infra/koschei/pull/238
// Kind: correct
// Expected: nothing to report: the resolver's session is its own DriverManager connection (no pool), so closing it ends the backend and releases every session-level lock it holds (F1). On success the repository's work is committed, then unlocked; when a statement of the work failed, the unlock in releaseOrEndSession fails with 25P02 (F18), which is caught and answered by closing the session, the original exception propagates, runCycle's rollback finds no session left, and the next cycle opens a new one. The lock is released on every path and never stacked.
package com.example.resolver;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class BuildResolver {

    static final int LOCK_BUILD_RESOLVER = 2;

    private static final Logger log = LoggerFactory.getLogger(BuildResolver.class);

    private final DbSession db;

    public BuildResolver(DbSession db) {
        this.db = db;
    }

    /** One pass of the service loop; the scheduler calls it again after a pause, whatever happened. */
    public void runCycle() throws SQLException {
        try {
            for (int collectionId : enabledCollections()) {
                processCollection(collectionId);
            }
            db.commit();
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            throw e;
        }
    }

    void processCollection(int collectionId) throws SQLException {
        Map<Integer, List<Long>> buildsByRepo = new TreeMap<>();
        try (PreparedStatement ps = db.connection().prepareStatement(
                "SELECT b.id, b.repo_id FROM build b JOIN package p ON p.id = b.package_id "
                        + "WHERE b.deps_resolved IS NULL AND b.repo_id IS NOT NULL AND p.collection_id = ?")) {
            ps.setInt(1, collectionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    buildsByRepo.computeIfAbsent(rs.getInt(2), k -> new ArrayList<>()).add(rs.getLong(1));
                }
            }
        }
        for (Map.Entry<Integer, List<Long>> group : buildsByRepo.entrySet()) {
            int repoId = group.getKey();
            if (!tryLock(repoId)) {
                log.info("Repo {} is being resolved by another process, skipping", repoId);
                continue;
            }
            try {
                resolveBuilds(repoId, group.getValue());
                db.commit();
            } finally {
                releaseOrEndSession(repoId);
            }
        }
    }

    private void resolveBuilds(int repoId, List<Long> buildIds) throws SQLException {
        try (PreparedStatement update = db.connection().prepareStatement(
                "UPDATE build SET deps_resolved = NOT EXISTS (SELECT 1 FROM build_requirement r "
                        + "WHERE r.build_id = build.id AND r.package_name_id NOT IN "
                        + "(SELECT c.package_name_id FROM repo_content c WHERE c.repo_id = ?)) WHERE id = ?")) {
            update.setInt(1, repoId);
            for (long buildId : buildIds) {
                update.setLong(2, buildId);
                update.executeUpdate();
            }
        }
    }

    private boolean tryLock(int repoId) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
            ps.setInt(1, LOCK_BUILD_RESOLVER);
            ps.setInt(2, repoId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void releaseOrEndSession(int repoId) {
        try {
            unlock(repoId);
        } catch (SQLException e) {
            log.warn("Could not release the lock of repo {}, closing the database session", repoId, e);
            db.close(); // after a failed statement the unlock fails (25P02); ending the backend releases the lock
        }
    }

    private void unlock(int repoId) throws SQLException {
        try (PreparedStatement ps = db.connection().prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
            ps.setInt(1, LOCK_BUILD_RESOLVER);
            ps.setInt(2, repoId);
            ps.executeQuery().close();
        }
    }

    private List<Integer> enabledCollections() throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT id FROM collection WHERE enabled ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }
}
