// Case: fabric-smart-client's Postgres notifier installed its trigger function with a script that took pg_advisory_lock, ran CREATE OR REPLACE FUNCTION/TRIGGER and called pg_advisory_unlock at the end, all inside the schema-initialisation transaction; the fix was "Advisory lock was released before commit/rollback".
// Source: https://github.com/hyperledger-labs/fabric-smart-client/pull/670
// Kind: bug
// Expected: the session-level unlock at the end of the script runs before the surrounding transaction commits, so a second node starting at the same time gets the key while the first node's CREATE OR REPLACE FUNCTION is still uncommitted and both rewrite the same function (blocking or "tuple concurrently updated"); use pg_advisory_xact_lock and drop the unlock.
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
                "SELECT pg_advisory_lock(" + key + ");\n"                                   // may: lock-without-finally-unlock
                + "CREATE OR REPLACE FUNCTION " + function + "() RETURNS trigger AS $$\n"
                + "BEGIN PERFORM pg_notify('" + table + "', TG_OP || ':' || NEW.id); RETURN NULL; END;\n"
                + "$$ LANGUAGE plpgsql;\n"
                + "CREATE OR REPLACE TRIGGER trigger_" + table + " AFTER INSERT OR UPDATE ON " + table
                + " FOR EACH ROW EXECUTE PROCEDURE " + function + "();\n"
                + "SELECT pg_advisory_unlock(" + key + ");\n";                               // want: session-unlock-before-commit
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
