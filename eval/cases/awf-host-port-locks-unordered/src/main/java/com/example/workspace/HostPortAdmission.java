// Case: agent-workspace-fabric took one pg_advisory_xact_lock per requested host port in the order the request listed them (dict.fromkeys keeps insertion order); two dispatches claiming overlapping ports in different orders could deadlock, and the review asked to sort the ports first
// Source: https://github.com/dimileeh/agent-workspace-fabric/pull/328
// Kind: bug
// Expected: blocking transaction-level locks are taken per port in request order (a LinkedHashSet keeps it): dispatch A with [8080, 8081] and B with [8081, 8080] each hold one key and wait for the other until PostgreSQL aborts one with "deadlock detected" (F9); sort the ports (or the keys) before locking.
package com.example.workspace;

import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class HostPortAdmission {

    @PersistenceContext
    private EntityManager em;

    /** Reserves the companion host ports of a workspace; fails with 409 when one is taken. */
    @Transactional
    public void admit(String workspaceId, List<Integer> hostPorts) {
        Set<Integer> ports = new LinkedHashSet<>(hostPorts);       // de-duplicated, request order kept
        for (int port : ports) {                                    // may: unbounded-lock-count
            em.createNativeQuery("SELECT pg_advisory_xact_lock(:key)") // want: unordered-multi-key-lock
                    .setParameter("key", lockKey(port))
                    .getSingleResult();
        }
        for (int port : ports) {
            Number taken = (Number) em.createNativeQuery(
                            "SELECT count(*) FROM workspace_host_ports WHERE host_port = :port AND released_at IS NULL")
                    .setParameter("port", port)
                    .getSingleResult();
            if (taken.longValue() > 0) {
                throw new HostPortConflictException(port);
            }
            em.createNativeQuery("INSERT INTO workspace_host_ports(workspace_id, host_port) VALUES (:ws, :port)")
                    .setParameter("ws", workspaceId)
                    .setParameter("port", port)
                    .executeUpdate();
        }
    }

    static long lockKey(int port) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("awf:host-port:" + port).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, 8).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static class HostPortConflictException extends RuntimeException {
        public HostPortConflictException(int port) { super("host port " + port + " is already in use"); }
    }
}
