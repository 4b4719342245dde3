// Case: koschei's build resolver holds a session-level pg_try_advisory_lock per repository while it resolves that repository's builds on its long-lived database session, and releases it in a finally block; when a statement of the work fails, the transaction is aborted, the unlock in finally fails too, and the lock stays held by the session.
// Source: https://github.com/fedora-infra/koschei/pull/238
// Kind: bug
// Expected: the session runs with autocommit off, so when a statement in resolveBuilds fails (a statement timeout, a build deleted concurrently, a constraint) the open transaction is aborted and the pg_advisory_unlock run by unlock(repoId) in the finally block fails with SQLSTATE 25P02 (F18); that exception replaces the original one, and the ROLLBACK in runCycle does not release a session-level lock (F1). The lock stays held by this process's long-lived session: the repository stays locked for every other resolver process, and this one takes the key again on its next cycle, stacking it (F4), so its one unlock per cycle never frees it. Roll back before unlocking, or end the session when the unlock fails.
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
                unlock(repoId); // may: lock-without-finally-unlock
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
        try (PreparedStatement ps = db.connection().prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) { // want: lock-without-finally-unlock
            ps.setInt(1, LOCK_BUILD_RESOLVER);
            ps.setInt(2, repoId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
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
