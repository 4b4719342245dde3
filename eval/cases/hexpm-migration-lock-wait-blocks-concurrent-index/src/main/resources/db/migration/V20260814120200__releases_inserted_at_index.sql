CREATE INDEX CONCURRENTLY IF NOT EXISTS releases_inserted_at_idx ON releases (inserted_at DESC);
