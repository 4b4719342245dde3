-- Initial schema of the invoice service.
CREATE TABLE customers (
    id            bigint PRIMARY KEY,
    name          text    NOT NULL,
    billing_day   integer NOT NULL CHECK (billing_day BETWEEN 1 AND 28),
    active        boolean NOT NULL DEFAULT true
);

CREATE SEQUENCE invoice_id_seq START WITH 1000000;

CREATE TABLE invoices (
    id             bigint PRIMARY KEY DEFAULT nextval('invoice_id_seq'),
    customer_id    bigint      NOT NULL REFERENCES customers (id),
    customer_name  text        NOT NULL,
    number         text,
    status         text        NOT NULL DEFAULT 'pending',
    notes          text,
    due_at         timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    search_vector  tsvector
);

CREATE INDEX invoices_pending_due ON invoices (due_at) WHERE status = 'pending';

CREATE TABLE invoice_runs   (started_at timestamptz NOT NULL, invoices_sent integer NOT NULL);
CREATE TABLE reindex_runs   (finished_at timestamptz NOT NULL, rows_updated integer NOT NULL);
CREATE TABLE invoice_pdfs   (storage_key text PRIMARY KEY, customer_id bigint NOT NULL,
                             location text NOT NULL DEFAULT 'hot', created_at timestamptz NOT NULL DEFAULT now());
