package com.example.tfstate.pg;

import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One plan/apply run against a workspace: lock it, read the state, write the new one, unlock. Several projects
 * share one database and keep their states apart by schema ({@code schema_name} in each project's backend block).
 */
public class StateCommand {

    private static final Logger log = LoggerFactory.getLogger(StateCommand.class);

    private final String connStr;
    private final String schemaName;

    public StateCommand(String connStr, String schemaName) {
        this.connStr = connStr;
        this.schemaName = schemaName;
    }

    public void run(String workspace, UnaryOperator<String> operation) throws Exception {
        try (PgStateBackend backend = PgStateBackend.open(connStr, schemaName)) {
            backend.lock(workspace);
            try {
                String current = backend.get(workspace);
                String next = operation.apply(current);
                if (next != null && !next.equals(current)) {
                    backend.put(workspace, next);
                    log.info("state of {}/{} written", schemaName, workspace);
                }
            } finally {
                backend.unlock();
            }
        }
    }
}
