package com.example.ledger;

import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class AccountSetService {

    private final MembershipLocks locks;
    private final JdbcTemplate jdbc;

    public AccountSetService(MembershipLocks locks, JdbcTemplate jdbc) {
        this.locks = locks;
        this.jdbc = jdbc;
    }

    @Transactional
    public void addMember(UUID setId, UUID accountId) {
        locks.lockPair(setId, accountId);
        insertMembership(setId, accountId);
    }

    /** Used when a loan is opened: about twenty accounts attached to their sets in one go. */
    @Transactional
    public void addMembers(List<MembershipLocks.Pair> pairs) {
        locks.lockMembersOfBatch(pairs);
        for (MembershipLocks.Pair p : pairs) {
            insertMembership(p.parentId(), p.memberId());
        }
    }

    private void insertMembership(UUID setId, UUID accountId) {
        Integer history = jdbc.queryForObject(
                "SELECT count(*) FROM balance_history WHERE account_id = ?", Integer.class, accountId);
        if (history != null && history > 0) {
            throw new IllegalStateException("account " + accountId + " already has balance history");
        }
        jdbc.update("INSERT INTO account_set_members(set_id, member_id) VALUES (?, ?)", setId, accountId);
    }
}
