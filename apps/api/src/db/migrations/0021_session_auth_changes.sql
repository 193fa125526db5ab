-- Every change that can end a console session or change what it may do (a session revoked,
-- shortened or deleted; a user changed or deleted; a role changed or deleted) is announced on the
-- channel session_auth_changed, so an API on the embedded database drops the sessions it holds
-- (decision 042). The last-seen time, written once a minute per session, is not announced.
CREATE OR REPLACE FUNCTION notify_session_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_auth_changed', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OF revoked_at, expires_at, user_id ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION notify_session_auth_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_auth_deleted AFTER DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_auth_changed();
--> statement-breakpoint
CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_auth_changed();
--> statement-breakpoint
CREATE TRIGGER roles_auth_changed AFTER UPDATE OR DELETE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_auth_changed();
