CREATE EXTENSION IF NOT EXISTS "uuid-ossp";

CREATE TABLE events (
    id bigserial PRIMARY KEY,
    uuid uuid NOT NULL DEFAULT uuid_generate_v4(),
    aggregate_id uuid NOT NULL,
    type varchar(255) NOT NULL,
    body json NOT NULL,
    version bigint NOT NULL,
    created_at timestamp without time zone NOT NULL DEFAULT (now() AT TIME ZONE 'utc')
);

CREATE UNIQUE INDEX events_aggregate_id_version_idx ON events (aggregate_id, version);
CREATE UNIQUE INDEX events_uuid_idx ON events (uuid);
CREATE INDEX events_type_idx ON events (type);

CREATE TABLE aggregates (
    aggregate_id uuid PRIMARY KEY,
    version bigint DEFAULT 1
);
