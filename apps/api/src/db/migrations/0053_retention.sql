CREATE TABLE "legal_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"subject_label" text NOT NULL,
	"reason" text NOT NULL,
	"placed_at" timestamp (3) with time zone NOT NULL,
	"placed_by_id" uuid,
	"placed_by_email" text NOT NULL,
	"lifted_at" timestamp (3) with time zone,
	"lifted_by_id" uuid,
	"lifted_by_email" text,
	"lift_reason" text,
	CONSTRAINT "legal_holds_reason_length" CHECK (char_length("legal_holds"."reason") between 1 and 500),
	CONSTRAINT "legal_holds_lift_whole" CHECK (("legal_holds"."lifted_at" is null) = ("legal_holds"."lifted_by_email" is null) and ("legal_holds"."lifted_at" is null) = ("legal_holds"."lift_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"removed" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_placed_by_id_users_id_fk" FOREIGN KEY ("placed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_lifted_by_id_users_id_fk" FOREIGN KEY ("lifted_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "legal_holds_active_subject_idx" ON "legal_holds" USING btree ("subject_kind","subject_id") WHERE "legal_holds"."lifted_at" is null;--> statement-breakpoint
CREATE INDEX "legal_holds_placed_idx" ON "legal_holds" USING btree ("placed_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "retention_runs_started_idx" ON "retention_runs" USING btree ("started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Retention (docs/decisions/086). The audit trail and the change history stay append-only to every
-- code path but one: the two functions below, run by the retention job. While one of them runs, a
-- transaction-local setting lets the append-only trigger pass a DELETE (never an UPDATE or a
-- TRUNCATE). The setting is only ever set inside them (SECURITY DEFINER, as the tables' owner), and
-- no role but the owner holds DELETE on these tables (migrations 0014, 0049), so nothing else can
-- remove a row; the owner could already lift the trigger, visibly, and still can.
CREATE OR REPLACE FUNCTION audit_rows_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' AND current_setting('app.retention_removal', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit rows are append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
-- Removes the oldest rows of one log (access or error) created before `before`, at most `max_rows`,
-- and moves the chain's start past them (decision 080, "Retention: a checkpoint"): start_seq becomes
-- the first place kept and start_hash the chain_hash of the last place removed, so the verifier starts
-- there and the chain stays whole. Only a prefix of the chain can go: the cut stops at the first row
-- that is not yet due, and at the first row of a held machine (its number) or held record (its id).
-- Rows from before the chain (no place) go by id, held ones excepted. Takes the chain's lock, so it
-- is one short transaction among the writers; the caller repeats it until it removes nothing.
CREATE FUNCTION audit_retention_trim(chain text, before timestamptz, held_machines text[],
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
  n bigint;
  removed bigint := 0;
BEGIN
  IF tbl IS NULL THEN
    RAISE EXCEPTION 'audit_retention_trim: unknown log %', chain;
  END IF;
  PERFORM pg_advisory_xact_lock(1096049425); -- the chain's lock (migration 0048)
  SELECT * INTO head FROM audit_chain_heads h WHERE h.log = chain FOR UPDATE;
  PERFORM set_config('app.retention_removal', 'on', true);
  EXECUTE format('DELETE FROM %I WHERE id IN (SELECT id FROM %I WHERE chain_seq IS NULL AND id <= $4
      AND created_at < $1 AND NOT coalesce(%s, false) ORDER BY id LIMIT $5)', tbl, tbl, held)
    USING before, held_machines, held_records, head.unchained_up_to_id, max_rows;
  GET DIAGNOSTICS n = ROW_COUNT;
  removed := n;
  EXECUTE format('SELECT min(chain_seq) FROM %I WHERE chain_seq >= $4 AND created_at < $1 AND %s', tbl, held)
    INTO hold_seq USING before, held_machines, held_records, head.start_seq;
  upper := least(head.start_seq + max_rows, head.last_seq + 1, coalesce(hold_seq, head.last_seq + 1));
  EXECUTE format('SELECT min(chain_seq) FROM %I WHERE chain_seq >= $1 AND chain_seq < $2 AND created_at >= $3', tbl)
    INTO young_seq USING head.start_seq, upper, before;
  upper := coalesce(young_seq, upper);
  IF upper > head.start_seq THEN
    EXECUTE format('SELECT chain_hash FROM %I WHERE chain_seq = $1', tbl) INTO cut_hash USING upper - 1;
    IF cut_hash IS NULL THEN
      RAISE EXCEPTION 'audit_retention_trim: place % of the % chain is missing; verify the chain', upper - 1, chain;
    END IF;
    EXECUTE format('DELETE FROM %I WHERE chain_seq >= $1 AND chain_seq < $2', tbl) USING head.start_seq, upper;
    GET DIAGNOSTICS n = ROW_COUNT;
    removed := removed + n;
    UPDATE audit_chain_heads SET start_seq = upper, start_hash = cut_hash WHERE log = chain;
  END IF;
  PERFORM set_config('app.retention_removal', '', true);
  RETURN removed;
END
$$;
--> statement-breakpoint
-- Removes change-history rows (record_history, decision 081) through the one explicit path: either
-- the rows of records the retention run has just removed (`record_kind`, `record_ids`: their history
-- holds the old values of what is gone, so it goes with them), or, with `record_ids` null, at most
-- `max_rows` rows changed before `before` whose record is not held (kind:id in `held`) and whose kind
-- is not in `kept_kinds` (a health record's history lives as long as the record: it goes with it).
CREATE FUNCTION record_history_retention_remove(kind text, record_ids text[], before timestamptz,
  held text[], kept_kinds text[], max_rows integer) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  n bigint;
BEGIN
  PERFORM set_config('app.retention_removal', 'on', true);
  IF record_ids IS NOT NULL THEN
    DELETE FROM record_history WHERE record_kind = kind AND record_id = ANY(record_ids);
  ELSE
    DELETE FROM record_history WHERE id IN (
      SELECT r.id FROM record_history r WHERE r.changed_at < before
        AND NOT r.record_kind = ANY(kept_kinds) AND NOT (r.record_kind || ':' || r.record_id) = ANY(held)
      ORDER BY r.changed_at, r.id LIMIT max_rows FOR UPDATE SKIP LOCKED);
  END IF;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('app.retention_removal', '', true);
  RETURN n;
END
$$;
--> statement-breakpoint
CREATE INDEX record_history_changed_idx ON record_history (changed_at, id);
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION audit_retention_trim(text, timestamptz, text[], text[], integer) FROM PUBLIC;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION record_history_retention_remove(text, text[], timestamptz, text[], text[], integer) FROM PUBLIC;
