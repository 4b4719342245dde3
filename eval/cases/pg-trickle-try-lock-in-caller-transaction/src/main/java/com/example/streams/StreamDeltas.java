package com.example.streams;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
public class StreamDeltas {

    private final JdbcTemplate jdbc;

    public StreamDeltas(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void apply(long streamTableId) {
        jdbc.update("INSERT INTO st_rows SELECT * FROM st_pending_delta WHERE st_id = ?", streamTableId);
        jdbc.update("DELETE FROM st_pending_delta WHERE st_id = ?", streamTableId);
    }
}
