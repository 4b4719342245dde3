// Case: the fix proposed for terraform-provider-postgresql's pgLockRole deadlock: lock the role and all of its members in a single statement, in ascending oid order, so every transaction takes the shared keys in the same global order.
// Source: https://github.com/cyrilgdn/terraform-provider-postgresql/pull/639
// Kind: correct
// Expected: nothing to report in practice: the oids are chosen and sorted in a subquery and locked in that order by the outer select inside the @Transactional method, so overlapping lock sets cannot form a cycle; a role has few members. (Strictly, PostgreSQL does not document that the outer select list runs in the subquery's order.)
package com.example.grants;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class RoleGrantService {

    private static final String LOCK_ROLE_AND_MEMBERS =
            "SELECT pg_advisory_xact_lock(k.oid::bigint) FROM ("                       // may: unordered-multi-key-lock|unbounded-lock-count
            + " SELECT r.oid FROM pg_roles r WHERE r.rolname = ?"
            + " UNION"
            + " SELECT m.member FROM pg_auth_members m JOIN pg_roles r ON m.roleid = r.oid WHERE r.rolname = ?"
            + " ORDER BY 1 OFFSET 0) k";

    private final JdbcTemplate jdbc;

    public RoleGrantService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional
    public void applyDefaultPrivileges(String role, String schema, String privileges) {
        lockRole(role);
        jdbc.execute("ALTER DEFAULT PRIVILEGES FOR ROLE \"" + role + "\" IN SCHEMA \"" + schema
                + "\" GRANT " + privileges + " ON TABLES TO PUBLIC");
    }

    /** Locks the role and all of its members, lowest oid first. */
    void lockRole(String role) {
        jdbc.queryForList(LOCK_ROLE_AND_MEMBERS, role, role); // may: unordered-multi-key-lock|unbounded-lock-count
    }
}
