-- built without blocking writes on a large table; must run outside a transaction block
CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_customer_id_idx ON orders (customer_id);
