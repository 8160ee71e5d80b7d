-- Appends a workspace's events as appendEvents (src/server/repositories/event-log.ts) does, under the same lock
-- ("PRLY", hashtext of the workspace id as the caller writes it), with one NOTIFY for the last seq. As a function,
-- a statement can append its events after its own data-modifying parts: being VOLATILE, its read of max(seq)
-- takes a snapshot after the lock is granted, which a single statement otherwise could not. The outbound path's
-- final write (src/server/repositories/sent-messages.ts) is then one statement instead of a transaction of several.
CREATE FUNCTION append_workspace_events(p_workspace text, p_events jsonb) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  last_seq bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(1347570777, hashtext(p_workspace));
  WITH base AS (SELECT coalesce(max(seq), 0) AS seq FROM workspace_events WHERE workspace_id = p_workspace::uuid),
  added AS (
    INSERT INTO workspace_events (workspace_id, seq, type, payload)
    SELECT p_workspace::uuid, base.seq + e.ord, e.value ->> 'type', e.value -> 'payload'
    FROM base, jsonb_array_elements(p_events) WITH ORDINALITY AS e(value, ord)
    RETURNING seq)
  SELECT max(seq) INTO last_seq FROM added;
  IF last_seq IS NOT NULL THEN
    PERFORM pg_notify('parley_events', p_workspace || ':' || last_seq);
  END IF;
  RETURN last_seq;
END $$;
