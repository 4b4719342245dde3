package com.example.river;

import java.nio.charset.StandardCharsets;

/**
 * The unique-insert lock key. Its string format and hash must match the main (Go) implementation
 * exactly, so that both languages take the same lock for the same job.
 */
final class UniqueLockKey {

    private static final long FNV64_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV64_PRIME = 0x100000001b3L;
    private static final int FNV32_OFFSET = 0x811c9dc5;
    private static final int FNV32_PRIME = 0x01000193;

    private UniqueLockKey() {
    }

    static String lockString(InsertParams params, UniqueOpts unique) {
        StringBuilder s = new StringBuilder("unique_key").append("kind=").append(params.kind());
        if (unique.byArgs()) {
            s.append("&args=").append(params.encodedArgs());
        }
        if (unique.byPeriodSeconds() > 0) {
            s.append("&period=").append(params.periodStart(unique.byPeriodSeconds()));
        }
        if (unique.byQueue()) {
            s.append("&queue=").append(params.queue());
        }
        if (unique.byState()) {
            s.append("&state=").append(String.join(",", unique.states()));
        }
        return s.toString();
    }

    /**
     * Without a prefix: all 64 bits of FNV-1. With a prefix: the prefix in the high four bytes and
     * FNV-1 (32 bits) in the low four. Java's long arithmetic wraps the unsigned value into the signed
     * bigint range, which PostgreSQL accepts in full.
     */
    static long compute(String lockString, Long prefix) {
        byte[] bytes = lockString.getBytes(StandardCharsets.UTF_8);
        if (prefix == null) {
            return fnv1_64(bytes);
        }
        return (prefix << 32) | (fnv1_32(bytes) & 0xFFFF_FFFFL);
    }

    private static long fnv1_64(byte[] bytes) {
        long h = FNV64_OFFSET;
        for (byte b : bytes) {
            h *= FNV64_PRIME;
            h ^= (b & 0xff);
        }
        return h;
    }

    private static int fnv1_32(byte[] bytes) {
        int h = FNV32_OFFSET;
        for (byte b : bytes) {
            h *= FNV32_PRIME;
            h ^= (b & 0xff);
        }
        return h;
    }
}
