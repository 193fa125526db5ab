-- The retention run's log removal in two steps (decision 086), so the audit chain's lock is held for
-- index reads and one update, never for a delete: every writer of an audit row takes that lock
-- (migration 0048), and a delete of thousands of rows under it held back the machines' log ingest
-- (bench:retention: 0.60 of its rate during the run, target 0.9).
--   audit_retention_advance moves a chain's start past at most max_rows places that are past the
--   period and not held, under the lock, and removes nothing: from then on those rows are outside the
--   chain (verification starts at start_seq), so
--   audit_retention_remove can delete them, and the rows from before the chain, without the lock.
-- A run that stops between the two leaves rows below the start; the next run removes them first.
CREATE FUNCTION audit_retention_advance(chain text, before timestamptz, held_machines text[],
  held_records text[], max_rows integer) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  tbl text := CASE chain WHEN 'access' THEN 'access_logs' WHEN 'error' THEN 'error_logs' END;
  held text := CASE chain WHEN 'access'
    THEN '(machine_number = ANY($2) OR record_id = ANY($3))' ELSE 'machine_number = ANY($2)' END;
  head audit_chain_heads%ROWTYPE;
  hold_seq bigint;
  young_seq bigint;
  upper bigint;
  cut_hash bytea;
BEGIN
  IF tbl IS NULL THEN
    RAISE EXCEPTION 'audit_retention_advance: unknown log %', chain;
  END IF;
  PERFORM pg_advisory_xact_lock(1096049425); -- the chain's lock (migration 0048)
  SELECT * INTO head FROM audit_chain_heads h WHERE h.log = chain FOR UPDATE;
  EXECUTE format('SELECT min(chain_seq) FROM %I WHERE chain_seq >= $4 AND created_at < $1 AND %s', tbl, held)
    INTO hold_seq USING before, held_machines, held_records, head.start_seq;
  upper := least(head.start_seq + max_rows, head.last_seq + 1, coalesce(hold_seq, head.last_seq + 1));
  EXECUTE format('SELECT min(chain_seq) FROM %I WHERE chain_seq >= $1 AND chain_seq < $2 AND created_at >= $3', tbl)
    INTO young_seq USING head.start_seq, upper, before;
  upper := coalesce(young_seq, upper);
  IF upper <= head.start_seq THEN
    RETURN 0;
  END IF;
  EXECUTE format('SELECT chain_hash FROM %I WHERE chain_seq = $1', tbl) INTO cut_hash USING upper - 1;
  IF cut_hash IS NULL THEN
    RAISE EXCEPTION 'audit_retention_advance: place % of the % chain is missing; verify the chain', upper - 1, chain;
  END IF;
  UPDATE audit_chain_heads SET start_seq = upper, start_hash = cut_hash WHERE log = chain;
  RETURN upper - head.start_seq;
END
$$;
--> statement-breakpoint
-- Removes at most max_rows rows outside the chain: first rows from before the chain (no place in it)
-- past the period and not held, then rows below the chain's start from place from_seq on. Returns
-- how many it removed and the place to go on from.
CREATE FUNCTION audit_retention_remove(chain text, before timestamptz, held_machines text[],
  held_records text[], from_seq bigint, max_rows integer, OUT removed bigint, OUT next_seq bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  tbl text := CASE chain WHEN 'access' THEN 'access_logs' WHEN 'error' THEN 'error_logs' END;
  held text := CASE chain WHEN 'access'
    THEN '(machine_number = ANY($2) OR record_id = ANY($3))' ELSE 'machine_number = ANY($2)' END;
  head audit_chain_heads%ROWTYPE;
  lo bigint;
BEGIN
  IF tbl IS NULL THEN
    RAISE EXCEPTION 'audit_retention_remove: unknown log %', chain;
  END IF;
  -- The start only ever moves forward, so what is below it now stays outside the chain.
  SELECT * INTO head FROM audit_chain_heads h WHERE h.log = chain;
  PERFORM set_config('app.retention_removal', 'on', true);
  next_seq := from_seq;
  EXECUTE format('DELETE FROM %I WHERE id IN (SELECT id FROM %I WHERE chain_seq IS NULL AND id <= $4
      AND created_at < $1 AND NOT coalesce(%s, false) ORDER BY id LIMIT $5)', tbl, tbl, held)
    USING before, held_machines, held_records, head.unchained_up_to_id, max_rows;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed = 0 THEN
    EXECUTE format('SELECT min(chain_seq) FROM %I WHERE chain_seq >= $1 AND chain_seq < $2', tbl)
      INTO lo USING from_seq, head.start_seq;
    IF lo IS NOT NULL THEN
      next_seq := least(lo + max_rows, head.start_seq);
      EXECUTE format('DELETE FROM %I WHERE chain_seq >= $1 AND chain_seq < $2', tbl) USING lo, next_seq;
      GET DIAGNOSTICS removed = ROW_COUNT;
    END IF;
  END IF;
  PERFORM set_config('app.retention_removal', '', true);
END
$$;
--> statement-breakpoint
DROP FUNCTION audit_retention_trim(text, timestamptz, text[], text[], integer);
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION audit_retention_advance(text, timestamptz, text[], text[], integer) FROM PUBLIC;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION audit_retention_remove(text, timestamptz, text[], text[], bigint, integer) FROM PUBLIC;
