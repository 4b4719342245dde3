-- Link a pending registration to the upstream OAuth session that started it.
ALTER TABLE user_registrations
    ADD COLUMN upstream_oauth_authorization_session_id UUID
        REFERENCES upstream_oauth_authorization_sessions (upstream_oauth_authorization_session_id)
        ON DELETE SET NULL;
