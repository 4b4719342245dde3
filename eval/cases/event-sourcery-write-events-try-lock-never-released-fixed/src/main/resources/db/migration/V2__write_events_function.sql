-- Appends events to one aggregate with optimistic concurrency, and (when _lock_table) makes the append the only
-- one in flight so that event ids grow in commit order: subscribers read events by id and must never see a lower id
-- commit after a higher one they have already read.
CREATE OR REPLACE FUNCTION write_events(_aggregate_id uuid, _event_types varchar[], _expected_version int,
                                        _bodies json[], _created_at_times timestamp without time zone[],
                                        _event_uuids uuid[], _lock_table boolean) RETURNS void AS $$
DECLARE
    current_version int;
    new_version int;
    num_events int;
    event_version int;
    event_id bigint;
    i int;
BEGIN
    num_events := array_length(_bodies, 1);
    SELECT version INTO current_version FROM aggregates WHERE aggregate_id = _aggregate_id;
    IF NOT FOUND THEN
        IF _expected_version = 0 OR _expected_version IS NULL THEN
            INSERT INTO aggregates (aggregate_id, version) VALUES (_aggregate_id, num_events);
            current_version := 0;
        ELSE
            RAISE 'Concurrency conflict. Current version: 0, expected version: %', _expected_version;
        END IF;
    ELSIF _expected_version IS NULL THEN
        UPDATE aggregates SET version = version + num_events WHERE aggregate_id = _aggregate_id
            RETURNING version INTO new_version;
        current_version := new_version - num_events;
    ELSE
        UPDATE aggregates SET version = version + num_events
            WHERE aggregate_id = _aggregate_id AND version = _expected_version;
        IF NOT FOUND THEN
            RAISE 'Concurrency conflict. Current version: %, expected version: %', current_version, _expected_version;
        END IF;
    END IF;

    IF _lock_table THEN
        -- only one writer at a time from here to the end of the transaction (released at commit or rollback);
        -- -1 is clear of the projector trackers' keys (their row ids)
        PERFORM pg_advisory_xact_lock(-1);
    END IF;

    event_version := current_version + 1;
    FOR i IN 1 .. num_events LOOP
        INSERT INTO events (uuid, aggregate_id, type, body, version, created_at)
        VALUES (_event_uuids[i], _aggregate_id, _event_types[i], _bodies[i], event_version,
                coalesce(_created_at_times[i], now() AT TIME ZONE 'utc'))
        RETURNING id INTO event_id;
        event_version := event_version + 1;
    END LOOP;
    PERFORM pg_notify('new_event', event_id::text);
END;
$$ LANGUAGE plpgsql;
