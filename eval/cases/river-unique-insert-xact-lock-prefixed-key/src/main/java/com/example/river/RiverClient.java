// Case: unique job insertion takes a transaction-level lock on a key hashed from the job's unique properties, inside a transaction the driver opens; the configurable key prefix is range-checked (the fix)
// Source: https://github.com/riverqueue/riverqueue-ruby/pull/24
// Kind: correct
// Expected: correct: the xact lock is taken inside the driver's transaction and held through the lookup and the insert until commit; the key is a
//   64-bit FNV hash, or a prefix checked to fit four bytes shifted over a 32-bit hash, wrapped into the signed bigint range.
package com.example.river;

import java.util.Optional;

/** Inserts jobs for workers written in another language; unique jobs are deduplicated at insert time. */
public class RiverClient {

    private final RiverDriver driver;
    private final Long advisoryLockPrefix;

    public RiverClient(RiverDriver driver, Long advisoryLockPrefix) {
        this.driver = driver;
        this.advisoryLockPrefix = checkPrefixBounds(advisoryLockPrefix);
    }

    public RiverClient(RiverDriver driver) {
        this(driver, null);
    }

    private static Long checkPrefixBounds(Long prefix) {
        if (prefix == null) {
            return null;
        }
        // 0xffffffff is the largest value that fits in the four bytes reserved for the prefix
        if (prefix < 0 || prefix > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("advisory lock prefix must fit inside four bytes");
        }
        return prefix;
    }

    public InsertResult insert(JobArgs args, InsertOpts opts) {
        InsertParams params = InsertParams.of(args, opts);
        UniqueOpts unique = opts.uniqueOpts();
        if (unique == null || !unique.anySet()) {
            return new InsertResult(driver.insertJob(params), false);
        }
        String lockString = UniqueLockKey.lockString(params, unique);
        long lockKey = UniqueLockKey.compute(lockString, advisoryLockPrefix);

        return driver.inTransaction(() -> {
            driver.advisoryXactLock(lockKey); // may: weak-lock-key-hash
            Optional<Job> existing = driver.findByKindAndUniqueProperties(params, unique);
            if (existing.isPresent()) {
                return new InsertResult(existing.get(), true);
            }
            return new InsertResult(driver.insertJob(params), false);
        });
    }

    public record InsertResult(Job job, boolean uniqueSkippedAsDuplicate) {
    }
}
