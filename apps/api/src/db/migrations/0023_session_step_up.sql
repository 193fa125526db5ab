-- Step-up (decision 046): when the admin last confirmed the password (and code) on this session.
-- Creating or editing an admin, changing a role's permissions or type, resetting another user's
-- two-step sign-in, revoking a machine and publishing a Force update need it within 5 minutes.
ALTER TABLE "sessions" ADD COLUMN "stepped_up_at" timestamp with time zone;
--> statement-breakpoint
-- A step-up changes what the session may do, so it is announced like a session's end (migration
-- 0021): an API on the embedded database drops the sessions it holds and reads the new time.
DROP TRIGGER IF EXISTS sessions_auth_changed ON sessions;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OF revoked_at, expires_at, user_id, stepped_up_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.stepped_up_at IS DISTINCT FROM NEW.stepped_up_at)
  EXECUTE FUNCTION notify_session_auth_changed();
