// Case: tldraw's sync worker made each user's legacy mutations take a shared session-level advisory lock on the user id so that the per-user groups data migration, which takes the same key exclusively, could not interleave with them; the lock was released by an explicit unlock placed before COMMIT and only on the success path, so an error left the shared lock on the pooled connection and a successful mutation could still commit after the migration had started.
// Source: https://github.com/tldraw/tldraw/pull/6955
// Kind: bug
// Expected: handleMutate opens a transaction on a pooled connection and takes pg_advisory_lock_shared(hashtext(userId)), a session-level lock. (1) When the mutator or the mutation-number upsert throws (a constraint, a statement timeout, a failed mutator precondition), the catch only rolls back, which does not release a session-level lock (F1), and closing the connection returns it to the Hikari pool with its session and the shared lock (F13): from then on migrate_user_to_groups, whose pg_advisory_xact_lock on the same key is exclusive and conflicts with a held shared lock (F7), waits for that idle pooled session, so the user's groups migration hangs until the session happens to be closed. (2) On success the pg_advisory_unlock_shared runs inside the still-open transaction, before conn.commit(), and a session-level unlock takes effect at once (F19): the migration can take its exclusive lock in that window and read the user's data without the mutation's uncommitted writes, and the mutation then commits after the migration started, the race the lock was added to prevent. A transaction-level shared lock (pg_advisory_xact_lock_shared) taken after BEGIN fixes both, released by the commit or the rollback. The key is a 32-bit hashtext of the user id (debatable).
package com.example.sync;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the client-sent mutations of one user, serialized with that user's groups migration. */
public class UserMutationHandler {

    /** A server-side mutator: writes the user's change with the given connection. */
    public interface Mutator {
        void apply(Connection conn, String userId, Map<String, Object> props) throws SQLException;
    }

    public record PendingMutation(String mutationId, long mutationNumber, Instant committedAt) {}

    private static final Logger log = LoggerFactory.getLogger(UserMutationHandler.class);

    private static final String BUMP_MUTATION_NUMBER = """
            INSERT INTO user_mutation_number ("userId", "mutationNumber") VALUES (?, 1)
            ON CONFLICT ("userId") DO UPDATE SET "mutationNumber" = user_mutation_number."mutationNumber" + 1
            RETURNING "mutationNumber"
            """;

    private final DataSource pool;
    private final Map<String, Mutator> mutators;
    private final String userId;
    private final Deque<PendingMutation> pending = new ArrayDeque<>();   // awaiting confirmation by replication

    public UserMutationHandler(DataSource pool, Map<String, Mutator> mutators, String userId) {
        this.pool = pool;
        this.mutators = Map.copyOf(mutators);
        this.userId = userId;
    }

    public synchronized void handleMutate(String mutationId, String name, Map<String, Object> props) throws SQLException {
        Mutator mutator = mutators.get(name);
        if (mutator == null) {
            throw new IllegalArgumentException("invalid mutator path: " + name);
        }
        log.debug("mutation {} ({}) for user {}", mutationId, name, userId);
        try (Connection conn = pool.getConnection()) {
            conn.setAutoCommit(false);
            try {
                // Shared per-user lock: waits while migrate_user_to_groups holds the user's key exclusively,
                // never blocks the user's other mutations.
                try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_lock_shared(hashtext(?))")) { // want: lock-without-finally-unlock // may: weak-lock-key-hash
                    lock.setString(1, userId);
                    lock.execute();
                }

                mutator.apply(conn, userId, props);
                long mutationNumber = bumpMutationNumber(conn);

                // Release the shared advisory lock.
                try (PreparedStatement unlock = conn.prepareStatement("SELECT pg_advisory_unlock_shared(hashtext(?))")) { // want: session-unlock-before-commit
                    unlock.setString(1, userId);
                    unlock.execute();
                }

                long current = pending.isEmpty() ? 0 : pending.peekLast().mutationNumber();
                if (mutationNumber <= current) {
                    throw new IllegalStateException("mutation number did not increase: " + mutationNumber + " <= " + current);
                }
                conn.commit();
                pending.addLast(new PendingMutation(mutationId, mutationNumber, Instant.now()));
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            }
        }
    }

    private long bumpMutationNumber(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(BUMP_MUTATION_NUMBER)) {
            ps.setString(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
