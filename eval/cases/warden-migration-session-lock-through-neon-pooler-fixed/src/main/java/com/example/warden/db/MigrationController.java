package com.example.warden.db;

import java.sql.SQLException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * Called by the deploy hook after each release. The service runs as a serverless function whose invocations the
 * platform terminates after 30 seconds, whatever they are doing.
 */
@RestController
public class MigrationController {

    private static final Logger log = LoggerFactory.getLogger(MigrationController.class);

    private final SchemaMigrator migrator;
    private final DeployHookVerifier verifier;

    /** Checks the shared secret the deploy hook sends. */
    public interface DeployHookVerifier {
        boolean isValid(String signature);
    }

    public MigrationController(SchemaMigrator migrator, DeployHookVerifier verifier) {
        this.migrator = migrator;
        this.verifier = verifier;
    }

    @PostMapping("/api/internal/migrate")
    public ResponseEntity<Map<String, Object>> migrate(@RequestHeader("X-Deploy-Signature") String signature)
            throws SQLException {
        if (!verifier.isValid(signature)) {
            return ResponseEntity.status(401).build();
        }
        int applied = migrator.migrate();
        log.info("schema migration finished, {} file(s) applied", applied);
        return ResponseEntity.ok(Map.of("applied", applied));
    }
}
