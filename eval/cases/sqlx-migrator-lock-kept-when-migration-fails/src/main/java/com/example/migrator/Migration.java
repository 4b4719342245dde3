package com.example.migrator;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One migration of an app. An atomic migration runs its operations and its bookkeeping row in one
 * transaction; a non-atomic one (for statements that cannot run in a transaction block) runs them in
 * autocommit, one statement at a time.
 */
public interface Migration {

    /** One step of a migration, with its inverse. */
    interface Operation {
        void up(Connection conn) throws SQLException;

        void down(Connection conn) throws SQLException;
    }

    String app();

    String name();

    List<Operation> operations();

    default boolean isAtomic() {
        return true;
    }

    /** Runs the operations forwards, or backwards (the last applied one first) to revert. */
    default void runOperations(Connection conn, boolean apply) throws SQLException {
        List<Operation> ops = new ArrayList<>(operations());
        if (!apply) {
            Collections.reverse(ops);
        }
        for (Operation op : ops) {
            if (apply) {
                op.up(conn);
            } else {
                op.down(conn);
            }
        }
    }

    /** A SQL statement pair as an operation: the common case. */
    static Operation sql(String up, String down) {
        return new Operation() {
            @Override
            public void up(Connection conn) throws SQLException {
                try (var st = conn.createStatement()) {
                    st.execute(up);
                }
            }

            @Override
            public void down(Connection conn) throws SQLException {
                try (var st = conn.createStatement()) {
                    st.execute(down);
                }
            }
        };
    }
}
