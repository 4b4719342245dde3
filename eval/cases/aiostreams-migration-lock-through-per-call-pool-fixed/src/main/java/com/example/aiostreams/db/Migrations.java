package com.example.aiostreams.db;

import java.util.List;

/** The schema migrations, in the order they are applied. Ids never change once released. */
final class Migrations {

    record Migration(int id, String name, List<String> statements) {
    }

    static final List<Migration> ALL = List.of(
            new Migration(1, "baseline", List.of(
                    "CREATE TABLE users (uuid text PRIMARY KEY, password_hash text NOT NULL, config text NOT NULL,"
                            + " created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)")),
            new Migration(2, "users_accessed_at", List.of(
                    "ALTER TABLE users ADD COLUMN accessed_at timestamp")),
            new Migration(3, "request_logs", List.of(
                    "CREATE TABLE request_logs (id bigserial PRIMARY KEY, user_uuid text NOT NULL REFERENCES users (uuid),"
                            + " addon text NOT NULL, took_ms integer NOT NULL, at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)",
                    "CREATE INDEX request_logs_user_idx ON request_logs (user_uuid, at)")),
            new Migration(4, "users_config_version", List.of(
                    "ALTER TABLE users ADD COLUMN config_version integer NOT NULL DEFAULT 1")),
            new Migration(5, "cache_entries", List.of(
                    "CREATE TABLE cache_entries (key text PRIMARY KEY, value text NOT NULL, expires_at timestamp NOT NULL)",
                    "CREATE INDEX cache_entries_expires_idx ON cache_entries (expires_at)")));

    private Migrations() {
    }

    /** The id of the newest migration this build knows; a database past it was migrated by a newer replica. */
    static int latestId() {
        return ALL.get(ALL.size() - 1).id();
    }
}
