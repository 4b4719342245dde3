package com.example.sync;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin operation that moves one user's files from the legacy owner model to groups. The work is done by the
 * migrate_user_to_groups database function, which first takes pg_advisory_xact_lock(hashtext(user id)), the
 * exclusive side of the lock the user's mutations take shared, and holds it until its transaction commits.
 */
public class GroupsMigrationAdmin {

    /** Reloads a user's synced state from the database after their data changed underneath it. */
    public interface UserStateCache {
        void hardReboot(String userId);
    }

    public record Result(int filesMigrated, int pinnedFilesMigrated, boolean flagAdded) {}

    private static final Logger log = LoggerFactory.getLogger(GroupsMigrationAdmin.class);

    private final DataSource pool;
    private final UserStateCache cache;

    public GroupsMigrationAdmin(DataSource pool, UserStateCache cache) {
        this.pool = pool;
        this.cache = cache;
    }

    public Result migrateToGroups(String userId, String inviteSecret) throws SQLException {
        log.info("migrating user {} to groups", userId);
        Result result;
        try (Connection conn = pool.getConnection();
             PreparedStatement ps = conn.prepareStatement(
                     "SELECT files_migrated, pinned_files_migrated, flag_added FROM migrate_user_to_groups(?, ?)")) {
            ps.setString(1, userId);
            ps.setString(2, inviteSecret);
            try (ResultSet rs = ps.executeQuery()) {   // autocommit: the function runs and commits as one statement
                rs.next();
                result = new Result(rs.getInt(1), rs.getInt(2), rs.getBoolean(3));
            }
        }
        log.info("user {} migrated: {}", userId, result);
        cache.hardReboot(userId);
        return result;
    }
}
