CREATE TYPE flow_access AS ENUM ('private', 'public');

CREATE TABLE flow (
    id uuid PRIMARY KEY,
    name varchar(255) NOT NULL,
    access flow_access NOT NULL DEFAULT 'private',
    data jsonb,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE message (
    id uuid PRIMARY KEY,
    flow_id uuid REFERENCES flow (id) ON DELETE CASCADE,
    sender varchar(64) NOT NULL,
    text text,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX message_flow_id_idx ON message (flow_id);
