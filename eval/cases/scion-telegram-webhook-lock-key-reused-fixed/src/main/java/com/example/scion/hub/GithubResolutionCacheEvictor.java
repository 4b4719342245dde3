package com.example.scion.hub;

import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Purges expired gh:// resolution cache entries; every hub node schedules it, one node runs each round. */
@Component
public class GithubResolutionCacheEvictor {

    private static final Logger log = LoggerFactory.getLogger(GithubResolutionCacheEvictor.class);

    private final HubLocks locks;
    private final JdbcTemplate jdbc;

    public GithubResolutionCacheEvictor(HubLocks locks, JdbcTemplate jdbc) {
        this.locks = locks;
        this.jdbc = jdbc;
    }

    @Scheduled(fixedDelay = 600_000, initialDelay = 60_000)
    public void evictExpired() throws SQLException {
        Optional<HubLocks.Held> lock = locks.tryLock(HubLocks.Keys.GITHUB_RESOLUTION_CACHE_EVICTION);
        if (lock.isEmpty()) {
            log.debug("cache eviction is running on another hub node, skipping this round");
            return;
        }
        try (HubLocks.Held held = lock.get()) {
            int purged = jdbc.update("DELETE FROM github_resolution_cache WHERE expires_at < now()");
            log.info("evicted {} expired GitHub resolution cache entries", purged);
        }
    }
}
