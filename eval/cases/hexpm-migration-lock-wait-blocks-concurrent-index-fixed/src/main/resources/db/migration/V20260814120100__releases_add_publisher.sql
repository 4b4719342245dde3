ALTER TABLE releases ADD COLUMN publisher_id bigint;
