package com.example.formplayer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

@Component
public class MigrationLock {

    static final long FORMPLAYER_MIGRATION_LOCK = 77_110_042L;

    private final DataSource migrationDataSource;

    public MigrationLock(@Qualifier("migrationDataSource") DataSource migrationDataSource) {
        this.migrationDataSource = migrationDataSource;
    }

    /** Runs the migrations only on the node that gets the lock; returns false on the others. */
    public boolean runIfFirst(Consumer<Connection> migrations) throws SQLException {
        try (Connection con = migrationDataSource.getConnection()) {
            if (!tryLock(con)) {
                return false;
            }
            try {
                migrations.accept(con);
                return true;
            } finally {
                unlock(con);
            }
        }
    }

    private boolean tryLock(Connection con) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, FORMPLAYER_MIGRATION_LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private void unlock(Connection con) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, FORMPLAYER_MIGRATION_LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new SQLException("migration lock " + FORMPLAYER_MIGRATION_LOCK + " was not held by this session");
                }
            }
        }
    }
}
