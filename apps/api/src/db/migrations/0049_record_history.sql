CREATE TABLE "record_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"record_kind" text NOT NULL,
	"record_id" text NOT NULL,
	"field" text NOT NULL,
	"old_value" jsonb,
	"new_value" jsonb,
	"secret" boolean DEFAULT false NOT NULL,
	"actor_id" uuid,
	"actor_email" text,
	"session_id" uuid,
	"request_id" text,
	"reason" text
);
--> statement-breakpoint
CREATE INDEX "record_history_record_idx" ON "record_history" USING btree ("record_kind","record_id","changed_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- The change history of the regulated records (docs/decisions/081): every change of a tracked field,
-- by any code path, becomes a row of record_history with the old and the new value, written by the
-- triggers below in the transaction that makes the change (so a change cannot be stored without its
-- history). Who made it: the transaction-local setting app.history_actor, a JSON object the API sets
-- at the start of an admin's write (lib/record-history.ts: userId, email, sessionId, requestId and a
-- reason when one was asked); unset, the system made it. Only tracked fields count: a machine's
-- check-ins, counters, derived mirrors (licence state, subscription status) and generated columns
-- are no change of the record. A secret (a password hash) is recorded as changed, never its value.
--
-- A tracked field is 'apiName=column', 'apiName=column!' for a secret, 'apiName=column*' for a JSON
-- object recorded key by key (settings: 'settings.heartbeatIntervalSeconds'). Returns the fields
-- whose value differs between two rows (as jsonb; null for a row that is not there), in reverse
-- order of the list, so a list read newest first (by id) shows them in the order they are declared.
CREATE FUNCTION record_history_fields(specs text[], o jsonb, n jsonb)
RETURNS TABLE (field text, old_value jsonb, new_value jsonb, secret boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH spec AS (
    SELECT s.ord, split_part(s.spec, '=', 1) AS field, s.spec LIKE '%!' AS secret, s.spec LIKE '%*' AS expand,
      nullif(o -> rtrim(split_part(s.spec, '=', 2), '!*'), 'null') AS ov,
      nullif(n -> rtrim(split_part(s.spec, '=', 2), '!*'), 'null') AS nv
    FROM unnest(specs) WITH ORDINALITY AS s(spec, ord)
  )
  SELECT c.field, c.ov, c.nv, c.secret FROM (
    SELECT spec.ord, '' AS key, spec.field, spec.ov, spec.nv, spec.secret
    FROM spec WHERE NOT spec.expand AND spec.ov IS DISTINCT FROM spec.nv
    UNION ALL
    SELECT spec.ord, k.key, spec.field || '.' || k.key, nullif(spec.ov -> k.key, 'null'),
      nullif(spec.nv -> k.key, 'null'), false
    FROM spec, LATERAL (
      SELECT jsonb_object_keys(coalesce(spec.ov, '{}')) UNION SELECT jsonb_object_keys(coalesce(spec.nv, '{}'))
    ) AS k(key)
    WHERE spec.expand AND spec.ov IS DISTINCT FROM spec.nv
      AND (spec.ov -> k.key) IS DISTINCT FROM (spec.nv -> k.key)
  ) c
  ORDER BY c.ord DESC, c.key DESC
$$;
--> statement-breakpoint
-- The row trigger: TG_ARGV is the record kind, the id column, then the tracked fields.
CREATE FUNCTION record_history_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor jsonb := nullif(current_setting('app.history_actor', true), '')::jsonb;
  o jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  n jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
BEGIN
  INSERT INTO record_history (record_kind, record_id, field, old_value, new_value, secret,
    actor_id, actor_email, session_id, request_id, reason)
  SELECT TG_ARGV[0], coalesce(n, o) ->> TG_ARGV[1], f.field,
    CASE WHEN f.secret THEN NULL ELSE f.old_value END, CASE WHEN f.secret THEN NULL ELSE f.new_value END,
    f.secret, (actor ->> 'userId')::uuid, actor ->> 'email', (actor ->> 'sessionId')::uuid,
    actor ->> 'requestId', actor ->> 'reason'
  FROM record_history_fields(TG_ARGV[2:], o, n) f;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Puts the two triggers on a table. A change (UPDATE) is recorded whoever makes it; the trigger
-- fires only for an UPDATE that sets a tracked column (a check-in never does) and only when one of
-- them differs, both decided without calling a function. A creation or removal is recorded when an
-- admin makes it (the setting is there): rows the system adds in bulk (the demo data, the first
-- admin) start their history at their first change.
CREATE FUNCTION record_history_track(tbl regclass, kind text, id_column text, specs text[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cols text[] := ARRAY(SELECT quote_ident(rtrim(split_part(s, '=', 2), '!*')) FROM unnest(specs) s);
  args text := array_to_string(ARRAY(SELECT quote_literal(a) FROM unnest(ARRAY[kind, id_column] || specs) a), ', ');
BEGIN
  EXECUTE format(
    'CREATE TRIGGER record_history_change AFTER UPDATE OF %s ON %s FOR EACH ROW
       WHEN ((%s) IS DISTINCT FROM (%s)) EXECUTE FUNCTION record_history_write(%s)',
    array_to_string(cols, ', '), tbl,
    array_to_string(ARRAY(SELECT 'OLD.' || c FROM unnest(cols) c), ', '),
    array_to_string(ARRAY(SELECT 'NEW.' || c FROM unnest(cols) c), ', '), args);
  EXECUTE format(
    'CREATE TRIGGER record_history_create_remove AFTER INSERT OR DELETE ON %s FOR EACH ROW
       WHEN (coalesce(current_setting(''app.history_actor'', true), '''') <> '''')
       EXECUTE FUNCTION record_history_write(%s)',
    tbl, args);
END
$$;
--> statement-breakpoint
SELECT record_history_track('devices', 'device', 'id', ARRAY['machineNumber=machine_number',
  'serialNumber=serial_number', 'location=location', 'latitude=latitude', 'longitude=longitude', 'city=city',
  'country=country', 'address=address', 'status=status', 'maintenanceWindow=maintenance_window',
  'settings=settings_own*']);
--> statement-breakpoint
-- An exemption is part of its machine's record: its history is the machine's.
SELECT record_history_track('licence_exemptions', 'device', 'device_id', ARRAY['exemptionKind=kind',
  'exemptionReason=reason', 'exemptionUntil=until']);
--> statement-breakpoint
SELECT record_history_track('users', 'user', 'id', ARRAY['firstName=first_name', 'lastName=last_name',
  'userName=user_name', 'email=email', 'phone=phone', 'roleId=role_id', 'isDeletable=is_deletable',
  'profileImage=profile_image', 'password=password_hash!']);
--> statement-breakpoint
SELECT record_history_track('roles', 'role', 'id', ARRAY['roleName=role_name', 'type=type',
  'permissions=permissions']);
--> statement-breakpoint
SELECT record_history_track('subscriptions', 'subscription', 'id', ARRAY['fullName=full_name', 'email=email',
  'machineSerialNumber=machine_serial_number', 'amountCents=amount_cents', 'isRecurring=is_recurring',
  'planType=plan_type', 'status=status', 'expiredAt=expired_at', 'paidAt=paid_at', 'paidThrough=paid_through',
  'graceUntil=grace_until', 'renewalFailedAt=renewal_failed_at', 'collectionPausedAt=collection_paused_at',
  'cancelAtPeriodEnd=cancel_at_period_end', 'cancelledAt=cancelled_at', 'revokedAt=revoked_at']);
--> statement-breakpoint
SELECT record_history_track('app_updates', 'app-update', 'id', ARRAY['appName=app_name',
  'versionName=version_name', 'versionCode=version_code', 'remark=remark', 'updateDesc=update_desc',
  'updateType=update_type', 'rolloutPercent=rollout_percent', 'respectsWindow=respects_window',
  'rolloutState=rollout_state', 'approvalPending=approval_pending']);
--> statement-breakpoint
SELECT record_history_track('machine_groups', 'group', 'id', ARRAY['name=name', 'filter=filter',
  'maintenanceWindow=maintenance_window', 'settings=settings*']);
--> statement-breakpoint
-- Patients' and doctors' contact data is masked in its history as everywhere (decision 045).
SELECT record_history_track('doctors', 'doctor', 'id', ARRAY['userName=user_name', 'email=email',
  'phonenumber=phonenumber', 'address=address', 'status=status', 'password=password_hash!']);
--> statement-breakpoint
SELECT record_history_track('patients', 'patient', 'id', ARRAY['patientname=patientname', 'email=email',
  'phone=phone', 'address=address']);
--> statement-breakpoint
-- The fleet's default settings are one row per key: each key is a field of the one 'fleet' record.
CREATE FUNCTION record_history_fleet_setting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor jsonb := nullif(current_setting('app.history_actor', true), '')::jsonb;
  o jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  n jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
BEGIN
  INSERT INTO record_history (record_kind, record_id, field, old_value, new_value,
    actor_id, actor_email, session_id, request_id, reason)
  SELECT 'fleet-settings', 'fleet', 'settings.' || (coalesce(n, o) ->> 'key'), o -> 'value', n -> 'value',
    (actor ->> 'userId')::uuid, actor ->> 'email', (actor ->> 'sessionId')::uuid,
    actor ->> 'requestId', actor ->> 'reason'
  WHERE (o -> 'value') IS DISTINCT FROM (n -> 'value');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER record_history_change AFTER UPDATE OF value ON fleet_settings FOR EACH ROW
  WHEN (OLD.value IS DISTINCT FROM NEW.value) EXECUTE FUNCTION record_history_fleet_setting();
--> statement-breakpoint
CREATE TRIGGER record_history_create_remove AFTER INSERT OR DELETE ON fleet_settings FOR EACH ROW
  WHEN (coalesce(current_setting('app.history_actor', true), '') <> '')
  EXECUTE FUNCTION record_history_fleet_setting();
--> statement-breakpoint
-- History is audit data: append-only like the audit trail (decision 013, migration 0014).
CREATE TRIGGER record_history_append_only BEFORE UPDATE OR DELETE ON record_history
  FOR EACH ROW EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
CREATE TRIGGER record_history_no_truncate BEFORE TRUNCATE ON record_history
  FOR EACH STATEMENT EXECUTE FUNCTION audit_rows_are_append_only();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON record_history FROM PUBLIC;
