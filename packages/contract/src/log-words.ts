import { formatCount } from './count-format.ts';
import type { RecordKind } from './logs.ts';

/**
 * An access-log row in words, beside its raw resource (issue 15, item 6): "Viewed patient",
 * "Changed device MN-1060: status", "Revealed doctor: email, phone (reason: Billing)". Derived from
 * the columns the row already has (resource, machine number, record, changed fields), so the Admin
 * Logs pay no extra query. A write's words end with the names of the fields it changed, never their
 * values (decision 048). Null for a row it has no words for (a route it does not know, a resource a
 * machine's app wrote).
 */
export type LogInWords = { text: string; record: { kind: RecordKind; id: string } | null };

type Phrase = [method: string, pattern: RegExp, text: string, record?: RecordKind];

const admin = '/api/v1/admin';
const app = '/api/v1/app';
const phrases: Phrase[] = [
  ['POST', /^\/login$/, 'Signed in'],
  ['POST', /^\/login\/mfa/, 'Signed in with a second step'],
  ['POST', /^\/logout$/, 'Signed out'],
  ['POST', /^\/change-password$/, 'Changed their password'],
  ['GET', /^\/profile$/, 'Opened their profile'],
  ['PUT', /^\/profile$/, 'Updated their profile'],
  ['GET', /^\/machine$/, 'Listed devices'],
  ['POST', /^\/machine\/add$/, 'Added a device', 'device'],
  ['GET', /^\/machine\/:id$/, 'Viewed device', 'device'],
  ['PUT', /^\/machine\/:id$/, 'Changed device', 'device'],
  // Bulk actions (decision 055): the row's listed ids hold the records acted on.
  ['POST', /^\/machine\/bulk-status$/, 'Changed the status of devices in bulk'],
  ['POST', /^\/machine\/:id\/enrolment\/code$/, 'Issued an enrolment code for device', 'device'],
  ['POST', /^\/machine\/:id\/enrolment\/revoke$/, 'Revoked the enrolment of device', 'device'],
  ['GET', /^\/doctor\/all$/, 'Listed doctors'],
  ['GET', /^\/patient\/all$/, 'Listed patients'],
  ['GET', /^\/technicians\/all$/, 'Listed technicians'],
  ['GET', /^\/treatement-records\/all$/, 'Listed treatment records'],
  ['GET', /^\/(access|error)-logs\/all$/, 'Read the $1 logs'],
  ['GET', /^\/users\/all$/, 'Listed users'],
  ['POST', /^\/users\/?$/, 'Added a user', 'user'],
  ['PUT', /^\/users\/:id$/, 'Changed user', 'user'],
  ['PUT', /^\/users\/:id\/machines$/, "Changed a technician's machines", 'user'],
  ['DELETE', /^\/users\/:id$/, 'Deleted user', 'user'],
  ['POST', /^\/users\/bulk-delete$/, 'Deleted users in bulk'],
  ['POST', /^\/users\/:id\/mfa\/reset$/, "Reset a user's two-step sign-in", 'user'],
  ['GET', /^\/roles\/all$/, 'Listed roles'],
  ['POST', /^\/roles$/, 'Added a role', 'role'],
  ['PUT', /^\/roles\/:id$/, 'Changed role', 'role'],
  ['DELETE', /^\/roles\/:id$/, 'Deleted role', 'role'],
  ['GET', /^\/subscrption\/all$/, 'Listed subscriptions'],
  ['POST', /^\/subscrption\/add$/, 'Created a subscription', 'subscription'],
  ['GET', /^\/system\/updates\/all$/, 'Listed app updates'],
  ['POST', /^\/system\/updates$/, 'Published an app update', 'app-update'],
  ['GET', /^\/alarms$/, 'Listed alarms'],
  ['POST', /^\/alarms\/:id\/acknowledge$/, 'Acknowledged an alarm of device', 'device'],
  ['POST', /^\/alarms\/:id\/resolve$/, 'Resolved an alarm of device', 'device'],
  ['PUT', /^\/profile\/alarm-digest$/, 'Changed their daily alarm digest'],
  ['PUT', /^\/preferences\/lists\/:list$/, 'Changed their settings of a list'],
  ['PUT', /^\/preferences\/color-mode$/, 'Changed their colour mode'],
  ['POST', /^\/views$/, 'Saved a view of a list'],
  ['DELETE', /^\/views\/:id$/, 'Deleted a saved view'],
];
const appPhrases: Phrase[] = [
  ['POST', /^\/heartbeat$/, 'Machine checked in'],
  ['POST', /^\/enrol$/, 'Machine enrolled'],
  ['POST', /^\/login$/, 'Signed in on the machine'],
  ['POST', /^\/logout$/, 'Signed out on the machine'],
  ['POST', /^\/(doctors|patients|treatments|access-logs|error-logs)$/, 'Machine sent $1'],
  ['GET', /^\/(doctors|patients|treatments)$/, 'Machine read $1'],
  ['GET', /^\/updates\/latest$/, 'Machine checked for an app update'],
];

const viewOrReveal = /^(VIEW|REVEAL) (patient|doctor|technician|treatment) (\S+?)(?::? (.*))?$/;
const exported = /^EXPORT (\S+) (\d+) rows( \(cut short\))?( unmasked)?: (.*)$/;
/** An export's first row, committed before its first byte left (decision 064); its count comes after. */
const exportStarted = /^EXPORTING (\S+)( unmasked)?: (.*)$/;
const filtersInWords = (filters: string) => (filters === 'all' ? 'every row' : `filters ${filters}`);
const request = /^(GET|POST|PUT|PATCH|DELETE) (\/api\/v1\/(?:admin|app))(\/\S*)$/;

export function logInWords(log: {
  resource: string;
  machineNumber: string | null;
  recordKind?: string | null;
  recordId?: string | null;
  changedFields?: readonly string[] | null;
}): LogInWords | null {
  const on = log.machineNumber ? ` on ${log.machineNumber}` : '';
  const looked = viewOrReveal.exec(log.resource);
  if (looked) {
    const [, action, kind, id, detail] = looked as unknown as [string, string, RecordKind, string, string?];
    const record = { kind, id };
    if (action === 'VIEW') return { text: `Viewed ${kind}${on}`, record };
    return { text: `Revealed ${kind}${on}: ${detail ?? ''}`.trimEnd(), record };
  }
  const file = exported.exec(log.resource);
  if (file) {
    const [, list, rows, cut, unmasked, filters] = file as unknown as [
      string,
      string,
      string,
      string | undefined,
      string | undefined,
      string,
    ];
    return {
      text: `Exported ${formatCount(Number(rows))} rows of ${list}${unmasked ? ' unmasked' : ''} (${filtersInWords(filters)})${cut ? ', cut short' : ''}`,
      record: null,
    };
  }
  const started = exportStarted.exec(log.resource);
  if (started) {
    const [, list, unmasked, filters] = started as unknown as [string, string, string | undefined, string];
    return {
      text: `Started exporting ${list}${unmasked ? ' unmasked' : ''} (${filtersInWords(filters)})`,
      record: null,
    };
  }
  const call = request.exec(log.resource);
  if (!call) return null;
  const [, method, base, rest] = call as unknown as [string, string, string, string];
  for (const [m, pattern, text, kind] of base === admin ? phrases : base === app ? appPhrases : []) {
    if (m !== method) continue;
    const match = pattern.exec(rest);
    if (!match) continue;
    const words = text.replace('$1', (match[1] ?? '').replace(/-/g, ' '));
    const fields = fieldList(log.changedFields);
    if (kind === 'device')
      return {
        text: `${log.machineNumber ? `${words} ${log.machineNumber}` : words}${fields}`,
        record: deviceRecord(log),
      };
    const record = kind && log.recordId && log.recordKind === kind ? { kind, id: log.recordId } : null;
    return { text: `${words}${base === app ? on : ''}${fields}`, record };
  }
  return null;
}

/** Shown whole up to this many; a longer list (a create's whole form) ends with how many more. */
const shownFields = 8;
/** ": status" or ": a, b, c and 3 more"; nothing when the row names no field. */
function fieldList(fields: readonly string[] | null | undefined): string {
  if (!fields?.length) return '';
  const shown = fields.slice(0, shownFields).join(', ');
  const more = fields.length - shownFields;
  return `: ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}

const deviceRecord = (log: { recordKind?: string | null; recordId?: string | null }) =>
  log.recordKind === 'device' && log.recordId ? { kind: 'device' as const, id: log.recordId } : null;
