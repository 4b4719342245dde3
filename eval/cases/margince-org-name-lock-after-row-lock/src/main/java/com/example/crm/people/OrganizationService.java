package com.example.crm.people;

import java.util.UUID;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The company form: a person edits an organisation's names. */
@Service
public class OrganizationService {

    private final JdbcTemplate jdbc;
    private final OrgNameDuplicateCheck duplicateCheck;

    public OrganizationService(JdbcTemplate jdbc, OrgNameDuplicateCheck duplicateCheck) {
        this.jdbc = jdbc;
        this.duplicateCheck = duplicateCheck;
    }

    /**
     * The name lock comes before the row lock: a create converging on the same company holds the name key while it
     * looks for rows, so taking the row first and the name second would let the two wait on each other.
     */
    @Transactional
    public void updateOrganization(UUID orgId, String legalName, String displayName) {
        duplicateCheck.lockNameIdentity(legalName);
        try {
            jdbc.queryForObject("SELECT id FROM organization WHERE id = ? AND archived_at IS NULL FOR UPDATE",
                    UUID.class, orgId);
        } catch (EmptyResultDataAccessException e) {
            throw new IllegalArgumentException("No organization " + orgId, e);
        }
        jdbc.update("UPDATE organization SET legal_name = ?, legal_name_source = 'human', display_name = ?, "
                + "updated_at = now() WHERE id = ?", legalName, displayName, orgId);
        duplicateCheck.recheck(orgId, legalName);
    }
}
