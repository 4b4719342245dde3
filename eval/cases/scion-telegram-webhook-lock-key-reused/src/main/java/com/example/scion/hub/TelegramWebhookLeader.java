package com.example.scion.hub;

import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.annotation.PostConstruct;
import javax.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Only one node may call Telegram's setWebhook; all nodes serve the webhook traffic. The node holding the
 * lock is the leader and keeps it (and the connection under it) for as long as it leads.
 */
@Component
public class TelegramWebhookLeader {

    private static final Logger log = LoggerFactory.getLogger(TelegramWebhookLeader.class);
    private static final long RETRY_SECONDS = 30;

    /** The part of the Bot API client used here. */
    public interface WebhookApi {
        void setWebhook(String url, String secretToken);
    }

    private final HubLocks locks;
    private final WebhookApi api;
    private final String webhookUrl;
    private final String webhookSecret;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private HubLocks.Held leadership;
    private boolean stopped;

    public TelegramWebhookLeader(HubLocks locks, WebhookApi api, HubConfig config) {
        this.locks = locks;
        this.api = api;
        this.webhookUrl = config.telegramWebhookUrl();
        this.webhookSecret = config.telegramWebhookSecret();
    }

    /** The hub settings this class reads. */
    public interface HubConfig {
        String telegramWebhookUrl();

        String telegramWebhookSecret();
    }

    @PostConstruct
    void start() {
        loop.scheduleWithFixedDelay(this::tick, 0, RETRY_SECONDS, TimeUnit.SECONDS);
    }

    synchronized void tick() {
        if (stopped) {
            return;
        }
        try {
            if (leadership != null) {
                if (!leadership.isAlive()) {
                    log.warn("lost the webhook registration lock with its session, entering standby");
                    release();
                }
                return;
            }
            Optional<HubLocks.Held> lock = locks.tryLock(HubLocks.Keys.TELEGRAM_WEBHOOK); // want: duplicate-lock-key
            if (lock.isEmpty()) {
                log.debug("webhook lock held elsewhere, standby; retrying in {}s", RETRY_SECONDS);
                return;
            }
            leadership = lock.get();
            api.setWebhook(webhookUrl, webhookSecret);
            log.info("registered Telegram webhook {} as leader", webhookUrl);
        } catch (SQLException | RuntimeException e) {
            log.error("webhook leader tick failed", e);
            release();
        }
    }

    /** Gives the leadership up on shutdown; a standby node takes the lock on its next tick and registers itself. */
    @PreDestroy
    synchronized void stop() {
        stopped = true;
        loop.shutdown();
        release();
    }

    private void release() {
        if (leadership == null) {
            return;
        }
        try {
            leadership.close();
        } catch (SQLException e) {
            log.warn("error releasing the webhook registration lock", e);
        } finally {
            leadership = null;
        }
    }
}
