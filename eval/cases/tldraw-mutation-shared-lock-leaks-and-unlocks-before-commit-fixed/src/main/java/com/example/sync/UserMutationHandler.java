// Case: tldraw's merged version of its per-user mutation lock: each mutation takes a shared transaction-level advisory lock on the user id right after BEGIN, so the lock lasts exactly as long as the mutation's transaction and the groups data migration, which takes the same key exclusively, can never interleave with a mutation.
// Source: https://github.com/tldraw/tldraw/pull/6955
// Kind: correct
// Expected: nothing to report. setAutoCommit(false) opens the transaction before pg_advisory_xact_lock_shared(hashtext(userId)) runs, the mutator, the mutation-number upsert and the ordering check run in that transaction, and the lock ends with it: at the commit, so migrate_user_to_groups (exclusive pg_advisory_xact_lock on the same key) cannot start before the mutation's writes are committed, or at the rollback when any step throws, so nothing is left on the connection the pool gets back. There is no unlock to misplace or skip. Shared mutations of one user do not block each other. The key is a 32-bit hashtext of the user id, as on the migration side; a collision only makes two users' migration and mutations wait for each other (debatable at most).
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
                // never blocks the user's other mutations. Released when this transaction ends.
                try (PreparedStatement lock = conn.prepareStatement("SELECT pg_advisory_xact_lock_shared(hashtext(?))")) { // may: weak-lock-key-hash
                    lock.setString(1, userId);
                    lock.execute();
                }

                mutator.apply(conn, userId, props);
                long mutationNumber = bumpMutationNumber(conn);

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
