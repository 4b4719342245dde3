CREATE TABLE memory_units (
    id uuid PRIMARY KEY,
    bank_id text NOT NULL,
    text text NOT NULL,
    embedding vector(1536),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX memory_units_bank_idx ON memory_units (bank_id, created_at);
