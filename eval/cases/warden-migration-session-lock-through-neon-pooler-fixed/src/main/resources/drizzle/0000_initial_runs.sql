CREATE TABLE IF NOT EXISTS review_runs (
    id uuid PRIMARY KEY,
    repository text NOT NULL,
    pull_request integer NOT NULL,
    head_sha text NOT NULL,
    status text NOT NULL DEFAULT 'queued',
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS review_runs_repository_idx ON review_runs (repository, pull_request);
