// Case: Rhex's fix for its per-user daily upload quota lock: the (user id, yyyymmdd) keys of the transaction-level advisory lock now reach PostgreSQL as integers, so the lock resolves to pg_advisory_xact_lock(integer, integer) and serializes a user's uploads of one day as intended.
// Source: https://github.com/lovedevpanda/Rhex/pull/23
// Kind: correct
// Expected: nothing to report. The user id comes from the integer users.id column and is held as an int, the day number yyyymmdd fits in int, both are bound as int and each placeholder is cast to integer as well, so the call matches pg_advisory_xact_lock(integer, integer) and cannot fail on range. The lock is the first statement of the @Transactional method (a public method of a Spring bean, called through its proxy), so it is held on the transaction's connection while the existing-upload lookup, the usage sum, the storage write and the insert run, and it is released by the commit, or by the rollback when the quota check or the storage write throws. One key per call, nothing unlocked by hand.
package com.example.uploads;

import java.time.Clock;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class UploadQuotaService {

    private static final Logger log = LoggerFactory.getLogger(UploadQuotaService.class);

    public record UploadRequest(String bucketType, String originalName, String fileHash, long fileSize) {}

    public record StoredFile(String storagePath, String urlPath, long fileSize) {}

    public record Upload(String id, String urlPath, long fileSize) {}

    public record UploadResult(Upload upload, boolean reused) {}

    private record Usage(int fileCount, long totalBytes) {}

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final int maxFilesPerDay;
    private final long maxBytesPerDay;

    public UploadQuotaService(JdbcTemplate jdbc, Clock clock,
                              @Value("${uploads.daily.max-files:200}") int maxFilesPerDay,
                              @Value("${uploads.daily.max-bytes:1073741824}") long maxBytesPerDay) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.maxFilesPerDay = maxFilesPerDay;
        this.maxBytesPerDay = maxBytesPerDay;
    }

    /**
     * Reserves the user's daily quota and records the upload in one transaction. The advisory lock on
     * (user, UTC day) serializes concurrent uploads of one user, so two requests cannot both pass the
     * quota check before either has inserted its row. The storage write runs while the lock is held.
     */
    @Transactional
    public UploadResult createUploadWithinDailyQuota(int userId, UploadRequest request, Supplier<StoredFile> save) {
        LocalDate today = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).toLocalDate();
        OffsetDateTime dayStart = today.atStartOfDay().atOffset(ZoneOffset.UTC);
        int dayKey = today.getYear() * 10_000 + today.getMonthValue() * 100 + today.getDayOfMonth();

        // Both halves as int4: the two-key lock exists only as pg_advisory_xact_lock(integer, integer).
        jdbc.query("SELECT pg_advisory_xact_lock(?::integer, ?::integer)", rs -> null, userId, dayKey);

        List<Upload> existing = jdbc.query(
                "SELECT id, url_path, file_size FROM uploads WHERE user_id = ? AND bucket_type = ? AND file_hash = ?",
                (rs, n) -> new Upload(rs.getString("id"), rs.getString("url_path"), rs.getLong("file_size")),
                userId, request.bucketType(), request.fileHash());
        if (!existing.isEmpty()) {
            return new UploadResult(existing.get(0), true);
        }

        Usage usage = jdbc.queryForObject(
                "SELECT count(*), coalesce(sum(file_size), 0) FROM uploads "
                        + "WHERE user_id = ? AND created_at >= ? AND created_at < ?",
                (rs, n) -> new Usage(rs.getInt(1), rs.getLong(2)),
                userId, dayStart, dayStart.plusDays(1));
        if (usage.fileCount() + 1 > maxFilesPerDay || usage.totalBytes() + request.fileSize() > maxBytesPerDay) {
            log.info("daily upload quota reached for user {}: {} files, {} bytes", userId, usage.fileCount(), usage.totalBytes());
            throw new UploadQuotaExceededException("daily upload quota reached");
        }

        StoredFile saved = save.get();
        String id = UUID.randomUUID().toString();
        jdbc.update("INSERT INTO uploads (id, user_id, bucket_type, original_name, file_hash, file_size, "
                        + "storage_path, url_path, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, now())",
                id, userId, request.bucketType(), request.originalName(), request.fileHash(), saved.fileSize(),
                saved.storagePath(), saved.urlPath());
        return new UploadResult(new Upload(id, saved.urlPath(), saved.fileSize()), false);
    }

    public static class UploadQuotaExceededException extends RuntimeException {
        public UploadQuotaExceededException(String message) {
            super(message);
        }
    }
}
