CREATE TABLE member_profiles (
    organization_id text PRIMARY KEY REFERENCES organizations (id),
    display_name text NOT NULL,
    tagline text,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX member_profiles_display_name_idx ON member_profiles (lower(display_name));
