-- Runs outside a transaction: CREATE INDEX CONCURRENTLY cannot run inside a transaction block.
CREATE INDEX CONCURRENTLY IF NOT EXISTS conversation_parent_conv_idx ON conversation (parent_conv);
