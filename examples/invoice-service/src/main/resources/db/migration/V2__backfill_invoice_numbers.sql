-- Gives every invoice created before numbering existed a number of the form INV-<year>-<id>.
-- Flyway runs this migration in one transaction. The transaction-level lock on key 9003
-- (LockKeys.INVOICE_NUMBER_BACKFILL) keeps a second instance starting at the same time from
-- backfilling twice; it is released by the COMMIT, so there is no unlock to forget.
SELECT pg_advisory_xact_lock(9003);

UPDATE invoices
   SET number = 'INV-' || extract(year FROM due_at)::int || '-' || id
 WHERE number IS NULL;

ALTER TABLE invoices ALTER COLUMN number SET NOT NULL;
