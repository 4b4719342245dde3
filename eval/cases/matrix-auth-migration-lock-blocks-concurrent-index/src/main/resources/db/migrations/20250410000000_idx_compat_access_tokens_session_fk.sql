-- no-transaction
-- Index on the foreign key to compat_sessions; built without blocking writes on a large table,
-- which cannot run inside a transaction block.

CREATE INDEX CONCURRENTLY IF NOT EXISTS
  compat_access_tokens_session_fk
  ON compat_access_tokens (compat_session_id);
