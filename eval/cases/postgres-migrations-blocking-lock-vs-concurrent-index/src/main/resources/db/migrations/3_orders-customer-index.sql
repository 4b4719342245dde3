-- migrator disable-transaction
-- orders is large in production: build the index without blocking writes (not allowed inside a transaction block)
CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_customer_id_idx ON orders (customer_id);
