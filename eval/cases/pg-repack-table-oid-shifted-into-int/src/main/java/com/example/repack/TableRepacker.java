package com.example.repack;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

public class TableRepacker {

    private final Connection conn;
    private final RepackTableLock lock;

    public TableRepacker(Connection conn) {
        this.conn = conn;
        this.lock = new RepackTableLock(conn);
    }

    public void repack(String qualifiedTable) throws SQLException {
        long oid = tableOid(qualifiedTable);          // pg_class.oid: 0 .. 4294967295
        if (!lock.tryLock(oid)) {
            throw new IllegalStateException("Another repack may be running on " + qualifiedTable + "; try again later");
        }
        try {
            copyAndSwap(qualifiedTable);
        } finally {
            lock.unlock(oid);
        }
    }

    private long tableOid(String qualifiedTable) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?::regclass::oid")) {
            ps.setString(1, qualifiedTable);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void copyAndSwap(String qualifiedTable) throws SQLException {
        // create the shadow table, copy rows, replay the log, swap relfilenodes (omitted)
    }
}
