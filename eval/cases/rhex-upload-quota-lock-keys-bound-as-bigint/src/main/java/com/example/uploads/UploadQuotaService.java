// Case: Rhex serialized each user's uploads for one UTC day with a two-key transaction-level advisory lock on (user id, yyyymmdd) before its read-then-write daily quota check, but both keys reached PostgreSQL as bigint parameters, so the lock statement failed on every call and every upload request returned HTTP 500.
// Source: https://github.com/lovedevpanda/Rhex/pull/23
// Kind: bug
// Expected: the two-key form exists only as pg_advisory_xact_lock(integer, integer) (besides the one-key pg_advisory_xact_lock(bigint)). userId and dayKey are Java longs; JdbcTemplate binds each Long with setObject, which the PostgreSQL JDBC driver sends as int8, and PostgreSQL does not narrow a bigint argument to integer when it resolves a function call, so the SELECT fails with "function pg_advisory_xact_lock(bigint, bigint) does not exist" (SQLSTATE 42883, F20) whatever the values are, although a user id of the integer users.id column and a yyyymmdd day number both fit in int. The @Transactional method rolls back and no upload is ever recorded. Binding the two halves as int (or casting each placeholder to integer) gives the lock the signature it needs; the rest of the method (the lock first in the transaction, the quota read and the insert under it, release at commit or rollback) is sound.
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
    public UploadResult createUploadWithinDailyQuota(long userId, UploadRequest request, Supplier<StoredFile> save) {
        LocalDate today = OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC).toLocalDate();
        OffsetDateTime dayStart = today.atStartOfDay().atOffset(ZoneOffset.UTC);
        long dayKey = today.getYear() * 10_000L + today.getMonthValue() * 100L + today.getDayOfMonth();

        jdbc.query("SELECT pg_advisory_xact_lock(?, ?)", rs -> null, userId, dayKey); // want: lock-key-out-of-range

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
