// Case: margince serialises writers of organisation names on a transaction-level advisory lock keyed by the name (so two records converging on one company see each other and get filed as a duplicate pair); a human rename took that name lock before the organisation's row lock, while the background sweep that promotes an inbox-derived name locked the row first and reached the name lock later, in its duplicate re-check.
// Source: https://github.com/margince/margince/pull/375
// Kind: bug
// Expected: promoteOrgName runs SELECT ... FOR UPDATE on the organisation row and only afterwards, inside duplicateCheck.recheck, takes pg_advisory_xact_lock(ORG_NAME_LOCK_NAMESPACE, hashtext(key)) for the new name; OrganizationService.updateOrganization takes that same name lock first and the row lock second. A human renaming a company while the sweep promotes a name with the same leading token for the same row gives a cycle between a row lock and an advisory lock: the rename holds the name key and waits for the row, the sweep holds the row and waits for the key, and PostgreSQL's deadlock check aborts one of them with deadlock detected (SQLSTATE 40P01), a 500 on the rename or a failed sweep. The sweep must take the name key before the row lock, the one order every writer uses. No rule describes a cycle between a row lock and an advisory lock.
package com.example.crm.people;

import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Replaces a domain-derived provisional company name with one read from correspondence, when nobody set it by hand. */
@Service
public class OrgNamePromotionService {

    private static final Logger log = LoggerFactory.getLogger(OrgNamePromotionService.class);

    private record NameState(String legalName, String source) {
    }

    private final JdbcTemplate jdbc;
    private final OrgNameDuplicateCheck duplicateCheck;

    public OrgNamePromotionService(JdbcTemplate jdbc, OrgNameDuplicateCheck duplicateCheck) {
        this.jdbc = jdbc;
        this.duplicateCheck = duplicateCheck;
    }

    /** Called by the inbox sweep, one organisation per transaction. Returns false when the name is not replaceable. */
    @Transactional
    public boolean promoteOrgName(UUID orgId, String name, String corroboration) {
        List<NameState> rows = jdbc.query(
                "SELECT legal_name, legal_name_source FROM organization WHERE id = ? AND archived_at IS NULL FOR UPDATE", // want: none
                (rs, n) -> new NameState(rs.getString(1), rs.getString(2)), orgId);
        if (rows.isEmpty()) {
            return false;
        }
        NameState current = rows.get(0);
        if (!"domain".equals(current.source()) || name.equals(current.legalName())) {
            // a human-set or already corroborated name wins over the inbox: that is the rule working
            return false;
        }
        jdbc.update("UPDATE organization SET legal_name = ?, legal_name_source = 'inbox', legal_name_evidence = ?, "
                + "updated_at = now() WHERE id = ?", name, corroboration, orgId);
        int filed = duplicateCheck.recheck(orgId, name);
        log.info("Promoted name of organization {} from '{}' to '{}'; {} duplicate candidates filed",
                orgId, current.legalName(), name, filed);
        return true;
    }
}
