package com.example.resources;

import java.sql.SQLException;

public class ResourceStatusService {

    static final String RESOURCES = "Resources";

    private final AdvisoryLockFactory lockFactory;
    private final ResourceDao dao;

    public ResourceStatusService(AdvisoryLockFactory lockFactory, ResourceDao dao) {
        this.lockFactory = lockFactory;
        this.dao = dao;
    }

    /** API path: status reports from agents; waits for its turn on the resource. */
    public void updateStatus(String resourceId, String status) throws SQLException {
        String owner = lockFactory.newAdvisoryLock(resourceId, RESOURCES);
        try {
            if (!status.equals(dao.currentStatus(resourceId))) {
                dao.saveStatus(resourceId, status);
            }
        } finally {
            lockFactory.unlock(owner);
        }
    }

    /** Controller path: resyncs the resource unless someone else is working on it right now. */
    public void resync(String resourceId) throws SQLException {
        AdvisoryLockFactory.LockAttempt attempt = lockFactory.newNonBlockingLock(resourceId, RESOURCES);
        try {
            if (!attempt.acquired()) {
                return;
            }
            dao.publishSpec(resourceId);
        } finally {
            lockFactory.unlock(attempt.owner());
        }
    }

    public interface ResourceDao {
        String currentStatus(String resourceId);
        void saveStatus(String resourceId, String status);
        void publishSpec(String resourceId);
    }
}
