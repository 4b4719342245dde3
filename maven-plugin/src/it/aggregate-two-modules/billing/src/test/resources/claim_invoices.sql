-- test data setup used by the billing tests
SELECT id FROM invoices WHERE pg_try_advisory_lock(id) ORDER BY due_date LIMIT 10;
