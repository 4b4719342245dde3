CREATE TABLE jobs (id bigint PRIMARY KEY, status text NOT NULL, priority int NOT NULL);
-- claim one job under a transaction-level lock
SELECT pg_try_advisory_xact_lock(1);
