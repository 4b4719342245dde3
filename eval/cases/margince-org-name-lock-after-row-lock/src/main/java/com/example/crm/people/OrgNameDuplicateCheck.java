package com.example.crm.people;

import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.stereotype.Component;

/**
 * Files a pair for review when a written name makes two organisations look like one company. Runs in the caller's
 * transaction; the name lock serialises every writer whose name could match this one until that transaction ends.
 */
@Component
public class OrgNameDuplicateCheck {

    static final int ORG_NAME_LOCK_NAMESPACE = 7301;

    private final JdbcTemplate jdbc;

    public OrgNameDuplicateCheck(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Locks every name that shares this one's leading token: those are the names the fuzzy tier compares. */
    public void lockNameIdentity(String name) {
        jdbc.query("SELECT pg_advisory_xact_lock(?, hashtext(?))", (RowCallbackHandler) rs -> { },
                ORG_NAME_LOCK_NAMESPACE, lockKey(name));
    }

    /** Returns how many candidate pairs were filed. */
    public int recheck(UUID orgId, String name) {
        lockNameIdentity(name);
        String token = lockKey(name);
        List<UUID> candidates = jdbc.queryForList(
                "SELECT id FROM organization WHERE id <> ? AND archived_at IS NULL "
                        + "AND lower(legal_name) LIKE ? AND similarity(lower(legal_name), lower(?)) >= 0.75",
                UUID.class, orgId, token + "%", name);
        int filed = 0;
        for (UUID other : candidates) {
            UUID first = orgId.compareTo(other) < 0 ? orgId : other;
            UUID second = first.equals(orgId) ? other : orgId;
            filed += jdbc.update("INSERT INTO org_duplicate_review (org_a, org_b, reason, created_at) "
                    + "VALUES (?, ?, 'name', now()) ON CONFLICT (org_a, org_b) DO NOTHING", first, second);
        }
        return filed;
    }

    static String lockKey(String name) {
        String normalized = name.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").trim();
        int space = normalized.indexOf(' ');
        return space < 0 ? normalized : normalized.substring(0, space);
    }
}
