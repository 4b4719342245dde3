CREATE OR REPLACE VIEW next_job AS
SELECT id
FROM jobs
WHERE status = 'pending' AND pg_try_advisory_lock(id)
ORDER BY priority
LIMIT 1;
