package com.example.airborne.authz;

import com.example.airborne.authz.AdvisoryLocks.AdvisoryLockGuard;
import com.example.airborne.authz.AdvisoryLocks.LockNamespace;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the role assignments of a Keycloak realm into the Casbin policy table once, when the server starts.
 * Every replica runs it; the advisory lock on the realm lets one of them do the import.
 */
public class KeycloakCasbinImporter {

    private static final Logger log = LoggerFactory.getLogger(KeycloakCasbinImporter.class);

    /** Reads the group memberships of a realm through the Keycloak admin API. */
    public interface KeycloakDirectory {
        Set<PolicyEntry> policiesOf(String realm);
    }

    /** Writes policy rows in one transaction of its own. */
    public interface PolicyStore {
        int insertMissing(Set<PolicyEntry> entries) throws SQLException;
    }

    public record PolicyEntry(String subject, String scope, String organisation, String application, String action) {
    }

    private final DataSource dataSource;
    private final KeycloakDirectory directory;
    private final PolicyStore policies;

    public KeycloakCasbinImporter(DataSource dataSource, KeycloakDirectory directory, PolicyStore policies) {
        this.dataSource = dataSource;
        this.directory = directory;
        this.policies = policies;
    }

    public static DataSource serverPool(String jdbcUrl, String user, String password) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(10);
        config.setPoolName("airborne");
        return new HikariDataSource(config);
    }

    public void importRealm(String realm, boolean apply) throws SQLException {
        if (!apply) {
            log.info("Dry run: {} policies would be imported from realm '{}'", directory.policiesOf(realm).size(), realm);
            return;
        }
        Optional<AdvisoryLockGuard> lock =
                AdvisoryLocks.tryAcquire(dataSource, LockNamespace.KEYCLOAK_TO_CASBIN_MIGRATION, realm);
        if (lock.isEmpty()) {
            log.info("Skipping Keycloak -> Casbin import for realm '{}': another instance is running it", realm);
            return;
        }
        try (AdvisoryLockGuard held = lock.get()) {
            Set<PolicyEntry> entries = directory.policiesOf(realm);
            int inserted = policies.insertMissing(entries);
            log.info("Imported {} of {} Keycloak policies for realm '{}'", inserted, entries.size(), realm);
        }
    }
}
