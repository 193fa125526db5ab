import { formatCount } from './count-format.ts';
import type { RecordKind } from './logs.ts';
import { appPhrases, type Phrase } from './log-phrases-app.ts';
import { customerLogPhrases } from './customers-texts.ts';
import { clinicPortalLogPhrases, clinicUserLogPhrases } from './clinic-users-texts.ts';
import { clinicPortalReadPhrases } from './clinic-portal-texts.ts';
import { retentionRunInWords } from './retention-texts.ts';

/**
 * An access-log row in words, beside its raw resource (issue 15, item 6): "Viewed patient",
 * "Changed device MN-1060: status", "Revealed doctor: email, phone (reason: Billing)". Derived from
 * the columns the row already has (resource, machine number, record, changed fields), so the Admin
 * Logs pay no extra query. A write's words end with the names of the fields it changed, never their
 * values (decision 048). Null for a row it has no words for (a route it does not know, a resource a
 * machine's app wrote).
 */
export type LogInWords = { text: string; record: { kind: RecordKind; id: string } | null };

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
  ['GET', /^\/treatement-records\/facets$/, 'Counted treatment records per filter'],
  ['GET', /^\/(access|error)-logs\/all$/, 'Read the $1 logs'],
  ['GET', /^\/audit\/verify$/, "Verified the audit logs' hash chains"],
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
  ['GET', /^\/views$/, 'Loaded their saved views'],
  ['GET', /^\/preferences$/, 'Loaded their settings'],
  ['GET', /^\/session$/, 'Checked their session'],
  ['GET', /^\/dashboard\/operations$/, 'Opened the dashboard'],
  ['GET', /^\/profile\/image\/:name$/, 'Loaded a profile picture'],
  ['GET', /^\/profile\/alarm-digest$/, 'Opened their alarm digest setting'],
  ['GET', /^\/alarms\/count$/, 'Checked the open alarms'],
  // Two-step sign-in and the password prompt (decisions 045, 046).
  ['GET', /^\/profile\/mfa$/, 'Opened their two-step sign-in'],
  ['POST', /^\/profile\/mfa\/setup$/, 'Started setting up two-step sign-in'],
  ['POST', /^\/profile\/mfa\/confirm$/, 'Turned two-step sign-in on'],
  ['POST', /^\/profile\/mfa\/disable$/, 'Turned two-step sign-in off'],
  ['POST', /^\/profile\/mfa\/recovery-codes$/, 'Made new recovery codes'],
  ['GET', /^\/users\/:id\/mfa$/, "Viewed a user's two-step sign-in", 'user'],
  ['POST', /^\/profile\/step-up$/, 'Confirmed their password'],
  // A forgotten password (anonymous: kept under the email given).
  ['POST', /^\/forgot-password$/, 'Asked for a password reset code'],
  ['POST', /^\/resend-otp$/, 'Asked for a new reset code'],
  ['POST', /^\/verify-email$/, 'Entered a password reset code'],
  ['POST', /^\/reset-password$/, 'Reset their password'],
  // Records and their lists.
  ['GET', /^\/roles\/:id$/, 'Viewed role', 'role'],
  ['GET', /^\/users\/:id$/, 'Viewed user', 'user'],
  ['GET', /^\/users\/:id\/machines$/, "Viewed a technician's machines", 'user'],
  ['GET', /^\/(doctor|patient)\/:id$/, 'Viewed a $1'],
  ['GET', /^\/technicians\/:id$/, 'Viewed a technician'],
  ['GET', /^\/treatement-records\/:id$/, 'Viewed a treatment record'],
  ['POST', /^\/(doctor|patient)\/:id\/reveal$/, "Revealed a $1's contact details"],
  ['GET', /^\/(doctor|patient)\/:id\/access-history$/, 'Read who looked at a $1'],
  // Break-glass access (decision 082): the use itself is also a REVEAL row naming it.
  ['POST', /^\/patient\/:id\/break-glass$/, "Broke the glass to see a patient's contact details"],
  ['GET', /^\/patient\/:id\/break-glass$/, "Saw a patient's contact details again under break-glass"],
  ['GET', /^\/break-glass$/, 'Listed the break-glass accesses for review'],
  ['GET', /^\/break-glass\/count$/, 'Checked the break-glass accesses awaiting sign-off'],
  ['POST', /^\/break-glass\/:id\/sign-off$/, 'Signed off a break-glass access', 'break-glass'],
  // Retention (decision 086): the schedule, its runs, and legal holds placed and lifted.
  ['GET', /^\/retention\/schedule$/, 'Read the retention schedule'],
  ['GET', /^\/retention\/runs$/, 'Listed the retention runs'],
  ['GET', /^\/legal-holds$/, 'Listed the legal holds'],
  ['POST', /^\/legal-holds$/, 'Placed a legal hold', 'legal-hold'],
  ['POST', /^\/legal-holds\/:id\/lift$/, 'Lifted a legal hold', 'legal-hold'],
  // Erasure requests (decision 085): the decision is also a signature row.
  ['GET', /^\/erasure-requests$/, 'Listed the erasure requests'],
  ['POST', /^\/erasure-requests$/, "Recorded a patient's erasure request", 'erasure-request'],
  ['GET', /^\/erasure-requests\/:id$/, 'Viewed an erasure request'],
  ['POST', /^\/erasure-requests\/:id\/decision$/, 'Decided an erasure request (signed)', 'erasure-request'],
  // Field safety notices (decision 084).
  ['GET', /^\/safety-notices$/, 'Listed the field safety notices'],
  ['POST', /^\/safety-notices$/, 'Drafted a field safety notice', 'safety-notice'],
  ['GET', /^\/safety-notices\/:id$/, 'Viewed a field safety notice'],
  ['PUT', /^\/safety-notices\/:id$/, 'Changed a draft field safety notice', 'safety-notice'],
  ['GET', /^\/safety-notices\/:id\/preview$/, 'Previewed the machines of a field safety notice'],
  ['POST', /^\/safety-notices\/:id\/send$/, 'Sent a field safety notice', 'safety-notice'],
  ['GET', /^\/safety-notices\/:id\/machines$/, 'Viewed the status of a field safety notice'],
  ['GET', /^\/safety-notices\/:id\/export$/, 'Downloaded the CSV of a field safety notice'],
  // Customers and who held a machine when (decision 087).
  ...customerLogPhrases,
  // Clinic users invited and listed by the supplier (decision 088).
  ...clinicUserLogPhrases,
  ['GET', /^\/machine-map$/, 'Opened the fleet map'],
  ['GET', /^\/machine-facets$/, 'Counted devices per filter'],
  ['GET', /^\/machine\/:id\/app-versions$/, 'Viewed the app versions of device', 'device'],
  ['GET', /^\/machine\/:id\/enrolment$/, 'Viewed the enrolment of device', 'device'],
  ['GET', /^\/machine\/:id\/licence$/, 'Viewed the licence of device', 'device'],
  ['PUT', /^\/machine\/:id\/licence\/exemption$/, 'Granted a licence exemption to device', 'device'],
  ['POST', /^\/machine\/:id\/licence\/exemption\/end$/, 'Ended the licence exemption of device', 'device'],
  ['POST', /^\/system\/updates\/:id\/rollout$/, 'Changed the rollout of an app update', 'app-update'],
  // Exports: the file's own EXPORT rows say what went out; this is the request.
  ['GET', /^\/machine-export$/, 'Downloaded an export of devices'],
  ['GET', /^\/system\/updates\/export$/, 'Downloaded an export of app updates'],
  ['GET', /^\/treatement-records\/export$/, 'Downloaded an export of treatment records'],
  ['GET', /^\/subscrption\/export$/, 'Downloaded an export of subscriptions'],
  ['GET', /^\/(roles|users|access-logs|error-logs|technicians)\/export$/, 'Downloaded an export of $1'],
  ['GET', /^\/(doctor|patient)\/export$/, 'Downloaded an export of $1s'],
  // Subscriptions and their operations (issue 34).
  ['GET', /^\/subscriptions\/:id$/, 'Viewed subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/resend$/, 'Sent the payment link again for subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/revoke$/, 'Revoked the payment link of subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/extend$/, 'Extended subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/grace$/, 'Granted grace to subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/resume$/, 'Resumed subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/cancel$/, 'Cancelled subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/retry$/, 'Retried the payment of subscription', 'subscription'],
  ['POST', /^\/subscriptions\/:id\/card-update$/, 'Sent a card update link for subscription', 'subscription'],
  [
    'GET',
    /^\/subscriptions\/:id\/payments\/:paymentId\/receipt$/,
    'Viewed a receipt of subscription',
    'subscription',
  ],
  // The customer's payment page (anonymous) and the provider's calls.
  ['GET', /^\/subscrption\/detail\/:id$/, 'Opened a payment link'],
  ['POST', /^\/subscription\/checkout$/, 'Started a payment'],
  ['POST', /^\/subscription\/demo-(pay|card)$/, 'Paid with the demo provider'],
  ['POST', /^\/subscription\/reconcile$/, "Asked for a payment's outcome"],
  ['POST', /^\/subscription\/webhook$/, 'The payment provider sent an event'],
  // The outbox (issue 35 item 3).
  ['GET', /^\/outbox$/, 'Listed the outbox'],
  ['GET', /^\/outbox\/:id$/, 'Viewed a message of the outbox'],
  ['POST', /^\/outbox\/:id\/resend$/, 'Sent a message of the outbox again'],
  // The Jobs screen (issue 36 item 1).
  ['GET', /^\/jobs$/, 'Listed the periodic jobs'],
  // Commands to machines (issue 37): each names the machine it went to.
  ['POST', /^\/machine\/:id\/commands$/, 'Sent a command to device', 'device'],
  ['GET', /^\/machine\/:id\/commands$/, 'Viewed the commands of device', 'device'],
  ['GET', /^\/commands\/:id$/, 'Viewed a command'],
  ['POST', /^\/commands\/:id\/cancel$/, 'Cancelled a command to device', 'device'],
  ['GET', /^\/commands\/:id\/diagnostics$/, 'Downloaded the diagnostics of device', 'device'],
  ['POST', /^\/commands$/, 'Sent a command to several machines'],
  ['GET', /^\/command-batches\/:id$/, 'Viewed a command sent to several machines'],
  ['POST', /^\/command-batches\/:id\/approve$/, 'Approved a command to several machines'],
  ['POST', /^\/command-batches\/:id\/reject$/, 'Rejected a command to several machines'],
  ['GET', /^\/groups$/, 'Listed the machine groups'],
  ['POST', /^\/groups$/, 'Created a machine group'],
  ['GET', /^\/groups\/:id$/, 'Viewed a machine group'],
  ['PUT', /^\/groups\/:id$/, 'Changed a machine group'],
  ['DELETE', /^\/groups\/:id$/, 'Deleted a machine group'],
  ['POST', /^\/groups\/:id\/members$/, 'Added machines to a group'],
  ['POST', /^\/groups\/:id\/members\/remove$/, 'Removed machines from a group'],
  ['GET', /^\/machine\/:id\/maintenance-window$/, 'Viewed the maintenance window of device', 'device'],
  ['PUT', /^\/machine\/:id\/maintenance-window$/, 'Changed the maintenance window of device', 'device'],
  ['PUT', /^\/groups\/:id\/maintenance-window$/, 'Changed the maintenance window of a machine group'],
  ['GET', /^\/settings$/, "Viewed the fleet's default settings"],
  ['PATCH', /^\/settings$/, "Changed the fleet's default settings"],
  ['GET', /^\/machine\/:id\/settings$/, 'Viewed the settings of device', 'device'],
  ['PATCH', /^\/machine\/:id\/settings$/, 'Changed the settings of device', 'device'],
  ['PATCH', /^\/groups\/:id\/settings$/, 'Changed the settings of a machine group'],
  // A record's change history (decision 081).
  ['GET', /^\/machine\/:id\/history$/, 'Read the change history of a device'],
  ['GET', /^\/(users|roles|subscriptions|groups)\/:id\/history$/, 'Read the change history of one of the $1'],
  ['GET', /^\/system\/updates\/:id\/history$/, 'Read the change history of an app update'],
  ['GET', /^\/settings\/history$/, "Read the change history of the fleet's default settings"],
  ['GET', /^\/(doctor|patient)\/:id\/history$/, "Read a $1's change history"],
  [
    'POST',
    /^\/(doctor|patient)\/:id\/history\/reveal$/,
    "Revealed a $1's contact details in its change history",
  ],
];

const viewOrReveal = /^(VIEW|REVEAL) (patient|doctor|technician|treatment) (\S+?)(?::? (.*))?$/;
const exported = /^EXPORT (\S+) (\d+) rows( \(cut short\))?( unmasked)?: (.*)$/;
/** An export's first row, committed before its first byte left (decision 064); its count comes after. */
const exportStarted = /^EXPORTING (\S+)( unmasked)?: (.*)$/;
const filtersInWords = (filters: string) => (filters === 'all' ? 'every row' : `filters ${filters}`);
const request = /^(GET|POST|PUT|PATCH|DELETE) (\/api\/v1\/(?:admin|app|clinic))(\/\S*)$/;
/** The clinic portal's own routes (decision 088). */
const clinic = '/api/v1/clinic';
const clinicPhrases = [...clinicPortalLogPhrases, ...clinicPortalReadPhrases];

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
  const run = retentionRunInWords(log.resource);
  if (run) return { text: run, record: null };
  const call = request.exec(log.resource);
  if (!call) return null;
  const [, method, base, rest] = call as unknown as [string, string, string, string];
  const list = base === admin ? phrases : base === app ? appPhrases : base === clinic ? clinicPhrases : [];
  for (const [m, pattern, text, kind] of list as Phrase[]) {
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
