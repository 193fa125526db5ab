CREATE TABLE "audit_chain_heads" (
	"log" text PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"last_hash" "bytea" NOT NULL,
	"start_seq" bigint NOT NULL,
	"start_hash" "bytea" NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"unchained_up_to_id" bigint NOT NULL,
	CONSTRAINT "audit_chain_heads_start_not_past_end" CHECK ("audit_chain_heads"."start_seq" <= "audit_chain_heads"."last_seq" + 1)
);
--> statement-breakpoint
ALTER TABLE "access_logs" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "access_logs" ADD COLUMN "chain_hash" "bytea";--> statement-breakpoint
ALTER TABLE "error_logs" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "error_logs" ADD COLUMN "chain_hash" "bytea";--> statement-breakpoint
CREATE UNIQUE INDEX "access_logs_chain_seq_idx" ON "access_logs" USING btree ("chain_seq");--> statement-breakpoint
CREATE INDEX "access_logs_unchained_idx" ON "access_logs" USING btree ("id") WHERE "access_logs"."chain_seq" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "error_logs_chain_seq_idx" ON "error_logs" USING btree ("chain_seq");--> statement-breakpoint
CREATE INDEX "error_logs_unchained_idx" ON "error_logs" USING btree ("id") WHERE "error_logs"."chain_seq" is null;--> statement-breakpoint
-- The audit trail is hash-chained (docs/decisions/080). Every row inserted into access_logs or
-- error_logs, by any code path and any instance, gets from the trigger below its place in its
-- table's chain (chain_seq) and chain_hash = sha256(the previous row's chain_hash || the row's
-- canonical text). Verification recomputes each row's hash from its stored predecessor in one
-- set-based pass (modules/audit-chain), so a row changed or removed afterwards is found.
--
-- The canonical text of a row: its columns as one record's text (quoting tells NULL from '' and
-- marks every separator), timestamps as epoch milliseconds so the session's TimeZone and DateStyle
-- do not change it. It is fixed: a column added to a log table later is not in it. Shared by the
-- trigger and the verifier, so the two can never disagree.
CREATE FUNCTION access_log_chain_text(r access_logs) RETURNS bytea
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT convert_to(row(r.chain_seq, r.id, (extract(epoch from r.created_at) * 1000)::bigint, r.user_id,
    r.user_email, r.resource, r.location, r.status_code, r.duration_ms, r.machine_number, r.record_kind,
    r.record_id, r.changed_fields, r.listed_ids, r.event, r.client_id,
    (extract(epoch from r.received_at) * 1000)::bigint)::text, 'UTF8')
$$;
--> statement-breakpoint
CREATE FUNCTION error_log_chain_text(r error_logs) RETURNS bytea
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT convert_to(row(r.chain_seq, r.id, (extract(epoch from r.created_at) * 1000)::bigint, r.user_id,
    r.user_email, r.resource, r.function_name, r.status_code, r.message, r.location, r.machine_number,
    r.event, r.client_id, (extract(epoch from r.received_at) * 1000)::bigint)::text, 'UTF8')
$$;
--> statement-breakpoint
-- The chain starts here: rows written before this migration keep no place in it (decision 080,
-- "Rows from before the chain"). Each chain begins from a fixed hash.
INSERT INTO audit_chain_heads (log, last_seq, last_hash, start_seq, start_hash, unchained_up_to_id)
SELECT l.log, 0, l.genesis, 1, l.genesis, l.max_id
FROM (
  SELECT 'access' AS log, sha256(convert_to('audit chain: access_logs', 'UTF8')) AS genesis,
         coalesce((SELECT max(id) FROM access_logs), 0) AS max_id
  UNION ALL
  SELECT 'error', sha256(convert_to('audit chain: error_logs', 'UTF8')),
         coalesce((SELECT max(id) FROM error_logs), 0)
) l;
--> statement-breakpoint
-- Nothing but the chain's own functions (below, as the owner) changes a head: an application role
-- that may only insert log rows (decision 013) cannot move one.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON audit_chain_heads FROM PUBLIC;
--> statement-breakpoint
-- A transaction's first audit row: takes the one lock every writer of either log takes (so rows get
-- their places in the order they commit and two writers never interleave; both logs under one lock,
-- so no two transactions wait on each other's), then reads that log's head. Locked FOR UPDATE too:
-- under REPEATABLE READ a head another transaction moved since the snapshot is an error, not a fork.
CREATE FUNCTION audit_chain_open(chain text, OUT seq bigint, OUT hash bytea)
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1096049425); -- 0x4154_4311: 'ATC' 17, used for nothing else
  SELECT h.last_seq, h.last_hash INTO seq, hash FROM audit_chain_heads h WHERE h.log = chain FOR UPDATE;
END
$$;
--> statement-breakpoint
-- Each row. The running place and hash live in a transaction-local setting, so the head is read
-- once per transaction and written once per statement (below), and a rolled-back savepoint takes
-- its rows' places back with it. No query per row, but one: a machine's row whose app id is
-- already stored is dropped by ON CONFLICT DO NOTHING after this trigger ran, so it must not take
-- a place (the lock makes that check exact: every other writer has committed or rolled back).
CREATE FUNCTION audit_chain_link() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  setting text := 'audit_chain.' || TG_ARGV[0];
  state text := current_setting(setting, true);
  seq bigint;
  prev bytea;
BEGIN
  IF state IS NULL OR state = '' THEN
    SELECT o.seq, o.hash INTO seq, prev FROM audit_chain_open(TG_ARGV[0]) o;
  ELSE
    seq := split_part(state, '/', 1)::bigint;
    prev := decode(split_part(state, '/', 2), 'hex');
  END IF;
  NEW.chain_seq := NULL;
  NEW.chain_hash := NULL;
  IF NEW.client_id IS NOT NULL AND NEW.machine_number IS NOT NULL THEN
    IF TG_TABLE_NAME = 'access_logs' THEN
      IF EXISTS (SELECT 1 FROM access_logs l WHERE l.machine_number = NEW.machine_number AND l.client_id = NEW.client_id) THEN
        RETURN NEW;
      END IF;
    ELSIF EXISTS (SELECT 1 FROM error_logs l WHERE l.machine_number = NEW.machine_number AND l.client_id = NEW.client_id) THEN
      RETURN NEW;
    END IF;
  END IF;
  NEW.chain_seq := seq + 1;
  IF TG_TABLE_NAME = 'access_logs' THEN
    NEW.chain_hash := sha256(prev || access_log_chain_text(NEW));
  ELSE
    NEW.chain_hash := sha256(prev || error_log_chain_text(NEW));
  END IF;
  PERFORM set_config(setting, NEW.chain_seq || '/' || encode(NEW.chain_hash, 'hex'), true);
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- After each statement: the head takes the transaction's running place and hash.
CREATE FUNCTION audit_chain_store_head() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  state text := current_setting('audit_chain.' || TG_ARGV[0], true);
BEGIN
  IF state IS NOT NULL AND state <> '' THEN
    UPDATE audit_chain_heads SET last_seq = split_part(state, '/', 1)::bigint,
      last_hash = decode(split_part(state, '/', 2), 'hex')
    WHERE log = TG_ARGV[0] AND last_seq < split_part(state, '/', 1)::bigint;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Named to fire last among BEFORE INSERT triggers (they fire by name), so no later one changes the
-- row after its hash is taken.
CREATE TRIGGER zz_access_logs_chain BEFORE INSERT ON access_logs
  FOR EACH ROW EXECUTE FUNCTION audit_chain_link('access');
--> statement-breakpoint
CREATE TRIGGER zz_access_logs_chain_head AFTER INSERT ON access_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_store_head('access');
--> statement-breakpoint
CREATE TRIGGER zz_error_logs_chain BEFORE INSERT ON error_logs
  FOR EACH ROW EXECUTE FUNCTION audit_chain_link('error');
--> statement-breakpoint
CREATE TRIGGER zz_error_logs_chain_head AFTER INSERT ON error_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_store_head('error');
