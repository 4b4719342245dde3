CREATE TABLE organizations (
    id text PRIMARY KEY,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agents (
    id bigserial PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    url text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);
