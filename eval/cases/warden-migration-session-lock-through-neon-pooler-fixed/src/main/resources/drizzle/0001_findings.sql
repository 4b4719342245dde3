CREATE TABLE IF NOT EXISTS findings (
    id uuid PRIMARY KEY,
    run_id uuid NOT NULL REFERENCES review_runs (id) ON DELETE CASCADE,
    path text NOT NULL,
    line integer,
    severity text NOT NULL,
    message text NOT NULL
);
