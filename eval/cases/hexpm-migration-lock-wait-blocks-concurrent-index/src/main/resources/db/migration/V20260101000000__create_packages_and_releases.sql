CREATE TABLE packages (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    inserted_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE releases (
    id bigserial PRIMARY KEY,
    package_id bigint NOT NULL REFERENCES packages (id),
    version text NOT NULL,
    checksum bytea NOT NULL,
    retirement jsonb,
    inserted_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (package_id, version)
);
