package com.example.canvas;

import java.math.BigInteger;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class CanvasSyncService {

    private final JdbcTemplate jdbc;

    public CanvasSyncService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Called by the job queue worker for each "canvas:sync:collect" job; several workers run at once. */
    @Transactional
    public void collect(String canvasId) {
        BigInteger key = CanvasLockKeys.syncKey(canvasId);
        jdbc.execute("SELECT pg_advisory_xact_lock(" + key + ")"); // want: lock-key-out-of-range

        List<byte[]> updates = jdbc.queryForList(
                "SELECT payload FROM canvas_updates WHERE canvas_id = ? ORDER BY seq", byte[].class, canvasId);
        if (updates.isEmpty()) {
            return;
        }
        byte[] snapshot = jdbc.queryForObject("SELECT snapshot FROM canvases WHERE id = ?", byte[].class, canvasId);
        jdbc.update("UPDATE canvases SET snapshot = ? WHERE id = ?", merge(snapshot, updates), canvasId);
        jdbc.update("DELETE FROM canvas_updates WHERE canvas_id = ?", canvasId);
    }

    private static byte[] merge(byte[] snapshot, List<byte[]> updates) {
        // applies the CRDT updates to the stored document (omitted)
        return snapshot;
    }
}
