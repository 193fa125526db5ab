import { useEffect, useRef, useState } from 'react';
import { apiPaths } from '@app/contract/paths';
import { sessionMessages } from '@app/contract/session';
import { Modal } from '#web/components/modal.tsx';
import { apiClient } from '#web/lib/api-client.ts';
import { getSessionDeadline } from '#web/lib/session-expiry.ts';
import { useSessionDeadline } from '#web/lib/use-session.ts';

/** The warning opens this long before the server would end an idle session. */
export const IDLE_WARNING_MS = 60_000;

/** GET session: the cheapest authenticated call; the server counts it as activity. */
const keepAlive = () => apiClient.get(apiPaths.session);

/**
 * Automatic logoff (HIPAA 164.312(a)(2)(iii)) the admin can see coming: a minute before the
 * server's idle deadline a dialog asks whether to stay signed in; at the deadline this tab signs
 * out. The deadline comes from the server on every answer and is shared by all tabs.
 */
export function IdleWarning({ onSignOut, onExpired }: { onSignOut: () => void; onExpired: () => void }) {
  const deadline = useSessionDeadline();
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const stay = useRef<HTMLButtonElement>(null);
  const expired = useRef(onExpired);
  useEffect(() => {
    expired.current = onExpired;
  }, [onExpired]);

  // Learn the deadline at once when no answer has told it yet (a fresh sign-in, a reload).
  useEffect(() => {
    if (getSessionDeadline() === null) void keepAlive().catch(() => undefined);
  }, []);

  // Sleep until the warning is due, then tick each second until the deadline.
  useEffect(() => {
    if (deadline === null) return;
    const untilWarning = deadline - IDLE_WARNING_MS - Date.now();
    if (untilWarning > 0) {
      const timer = setTimeout(() => setNow(Date.now()), untilWarning);
      return () => clearTimeout(timer);
    }
    const tick = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(tick);
  }, [deadline, now]);

  const left = deadline === null ? null : Math.ceil((deadline - now) / 1000);
  const ended = useRef(false);
  useEffect(() => {
    if (left === null || left > 0 || ended.current) return;
    ended.current = true;
    expired.current();
  }, [left]);

  const stayLoggedIn = async () => {
    setBusy(true);
    try {
      await keepAlive();
    } catch {
      // A 401 here is handled by the client (sign-out); anything else leaves the dialog up to retry.
    } finally {
      setBusy(false);
      setNow(Date.now());
    }
  };

  const show = left !== null && left > 0 && left * 1000 <= IDLE_WARNING_MS;
  return (
    <Modal
      show={show}
      onClose={() => void stayLoggedIn()}
      title={sessionMessages.warningTitle}
      staticBackdrop
      size="sm"
      initialFocus={stay}
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onSignOut}>
            {sessionMessages.signOut}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            ref={stay}
            disabled={busy}
            onClick={() => void stayLoggedIn()}
          >
            {sessionMessages.staySignedIn}
          </button>
        </>
      }
    >
      <p className="mb-0">{sessionMessages.warningBody(Math.max(left ?? 0, 0))}</p>
    </Modal>
  );
}
