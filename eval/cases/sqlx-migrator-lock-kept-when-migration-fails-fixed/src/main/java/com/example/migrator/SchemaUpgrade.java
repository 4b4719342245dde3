package com.example.migrator;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the schema up to date when an instance starts, and again when an operator asks for it through the
 * admin endpoint. A failed upgrade is reported, and the instance keeps serving on the schema it has.
 */
public class SchemaUpgrade {

    private static final Logger log = LoggerFactory.getLogger(SchemaUpgrade.class);

    private final DataSource pool;        // the application's Hikari pool
    private final Migrator migrator;

    public SchemaUpgrade(DataSource pool, Migrator migrator) {
        this.pool = pool;
        this.migrator = migrator;
    }

    /** True when every pending migration was applied. */
    public boolean upgrade() {
        log.info("schema upgrade started");
        try (Connection conn = pool.getConnection()) {
            migrator.run(conn, Migrator.Plan.apply());
            log.info("schema upgrade finished");
            return true;
        } catch (SQLException | RuntimeException e) {
            log.error("schema upgrade failed; still serving on the current schema", e);
            return false;
        }
    }
}
