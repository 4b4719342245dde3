// Case: terraform-provider-postgresql's pgLockRole took pg_advisory_xact_lock on a role's oid, then on each member oid in a second query without ORDER BY; parallel applies on roles sharing members locked them in opposite orders and failed with "deadlock detected".
// Source: https://github.com/cyrilgdn/terraform-provider-postgresql/pull/639
// Kind: bug
// Expected: the member locks are blocking locks taken one per row in whatever order the plan returns the rows (and after the role lock), so two transactions on roles with overlapping members can wait on each other and one is aborted by the deadlock detector; take all keys in one global order (e.g. sorted by oid).
package com.example.grants;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class RoleGrantService {

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

    /** Locks the role and all of its members so that concurrent grant changes serialize. */
    void lockRole(String role) {
        jdbc.queryForList("SELECT pg_advisory_xact_lock(oid::bigint) FROM pg_roles WHERE rolname = ?", role);
        jdbc.queryForList(
                "SELECT pg_advisory_xact_lock(member::bigint) FROM pg_auth_members JOIN pg_roles ON roleid = pg_roles.oid WHERE rolname = ?", // want: unordered-multi-key-lock // may: unbounded-lock-count
                role);
    }
}
