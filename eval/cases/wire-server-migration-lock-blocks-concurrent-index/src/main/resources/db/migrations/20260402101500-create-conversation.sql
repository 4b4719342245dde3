CREATE TABLE IF NOT EXISTS conversation (
    id              uuid PRIMARY KEY,
    team            uuid,
    creator         uuid,
    name            text,
    parent_conv     uuid,
    message_timer   bigint,
    created_at      timestamptz NOT NULL DEFAULT now()
);
