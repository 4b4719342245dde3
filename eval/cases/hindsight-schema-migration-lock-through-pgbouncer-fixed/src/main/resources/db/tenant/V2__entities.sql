CREATE TABLE entities (
    id uuid PRIMARY KEY,
    bank_id text NOT NULL,
    canonical_name text NOT NULL,
    UNIQUE (bank_id, canonical_name)
);

CREATE TABLE unit_entities (
    unit_id uuid NOT NULL REFERENCES memory_units (id) ON DELETE CASCADE,
    entity_id uuid NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    PRIMARY KEY (unit_id, entity_id)
);
