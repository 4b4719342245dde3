SELECT id FROM jobs WHERE pg_try_advisory_lock(id) ORDER BY priority LIMIT 1;
