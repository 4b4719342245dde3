// Case: the fabric-smart-client fix: the trigger-installation script takes pg_advisory_xact_lock instead of a session lock and no longer unlocks, so the lock is held until the schema transaction commits or rolls back.
// Source: https://github.com/hyperledger-labs/fabric-smart-client/pull/670
// Kind: correct
// Expected: nothing to report: the transaction-level lock is taken inside the @Transactional method (called through the proxy) and ends at its commit, after the function and trigger are visible, or at rollback on failure.
package com.example.notify;

import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

@Component
public class TriggerSchemaInstaller {

    private final JdbcTemplate jdbc;

    public TriggerSchemaInstaller(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Called at start-up by every node, through the Spring proxy (TriggerStartup injects this bean). */
    @Transactional
    public void installNotifyTrigger(String table) {
        String function = "notify_" + table;
        long key = lockKey(function);
        String script =
                "SELECT pg_advisory_xact_lock(" + key + ");\n"
                + "CREATE OR REPLACE FUNCTION " + function + "() RETURNS trigger AS $$\n"
                + "BEGIN PERFORM pg_notify('" + table + "', TG_OP || ':' || NEW.id); RETURN NULL; END;\n"
                + "$$ LANGUAGE plpgsql;\n"
                + "CREATE OR REPLACE TRIGGER trigger_" + table + " AFTER INSERT OR UPDATE ON " + table
                + " FOR EACH ROW EXECUTE PROCEDURE " + function + "();\n";
        jdbc.execute(script);
    }

    static long lockKey(String name) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
