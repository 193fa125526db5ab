import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { apiPaths } from '@app/contract/paths';
import type { RecordKind } from '@app/contract/logs';
import { routeConfigOf } from './route-config.ts';

/*
 * Which record an audit row names (decision 048), decided once per route at registration, so a
 * request pays no lookup: an admin write names the record it changed (from the route's `:id`, the
 * signed-in admin for their own account, or the `_id` of the record a create answered), and a list
 * read of health data keeps the ids of the rows it answered. Both are read from what the request
 * already holds: its params, its validated body, the handler's answer. Never a second query.
 */

/** Where a write's record id comes from. */
type IdSource = 'param' | 'self' | 'answer';

export type AuditPlan = {
  write?: { kind: RecordKind; id: IdSource };
  /** A list of health data: the kind of its rows and the answer's field that holds them. */
  listed?: { kind: RecordKind; rows: string };
};

const adminPrefix = '/api/v1/admin/';

/**
 * The record an admin write changes, by the route's first word. A route with `:id` acts on that
 * record; the admin's own account routes act on the admin; any other write creates the record its
 * answer names. A word not here names no record (the route test lists every admin write).
 */
const kindByWord: Record<string, RecordKind | 'self'> = {
  machine: 'device',
  users: 'user',
  roles: 'role',
  subscrption: 'subscription',
  // Ours: a subscription's operations (resend, extend, cancel...), beside the spec's misspelt list.
  subscriptions: 'subscription',
  system: 'app-update',
  alarms: 'alarm',
  views: 'saved-view',
  // A command cancelled: its handler names the machine it was for (modules/commands).
  commands: 'device',
  // A command to several machines: its handler names the batch it made (modules/commands).
  'command-batches': 'command-batch',
  groups: 'group',
  // The fleet's default settings (modules/machine-settings): the row names the kind, no id.
  settings: 'fleet-settings',
  // An emergency access signed off (modules/break-glass, decision 082).
  'break-glass': 'break-glass',
  // A legal hold placed or lifted (modules/retention, decision 086).
  'legal-holds': 'legal-hold',
  // A patient's erasure request recorded or decided (modules/erasure, decision 085).
  'erasure-requests': 'erasure-request',
  // A field safety notice drafted, changed or sent (modules/safety-notices, decision 084).
  'safety-notices': 'safety-notice',
  // A customer added, changed or deleted (modules/customers, decision 087).
  customers: 'customer',
  // A mail sent again from the Outbox (modules/outbox).
  outbox: 'mail',
  // An admin's own list preferences and colour mode (decisions 053, 054).
  preferences: 'self',
  // A reveal is named by its own REVEAL row (audit.recordView); the request row then names nothing.
  patient: 'patient',
  doctor: 'doctor',
  profile: 'self',
  'change-password': 'self',
  logout: 'self',
};

/** Lists of health data (permission patients.view): what they answer, under which field. */
const healthLists: Record<string, NonNullable<AuditPlan['listed']>> = {
  [apiPaths.doctorsAll]: { kind: 'doctor', rows: 'data' },
  [apiPaths.patientsAll]: { kind: 'patient', rows: 'patientData' },
  [apiPaths.techniciansAll]: { kind: 'technician', rows: 'data' },
  [apiPaths.treatmentsAll]: { kind: 'treatment', rows: 'data' },
};

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function auditPlanOf(method: string, url: string, access: string | undefined): AuditPlan | undefined {
  if (access !== 'admin' || !url.startsWith(adminPrefix)) return undefined;
  if (readMethods.has(method)) {
    const listed = method === 'GET' ? healthLists[url] : undefined;
    return listed ? { listed } : undefined;
  }
  const kind = kindByWord[url.slice(adminPrefix.length).split('/')[0]!];
  if (!kind) return undefined;
  if (kind === 'self') return { write: { kind: 'user', id: 'self' } };
  return { write: { kind, id: /\/:id(\/|$)/.test(url) ? 'param' : 'answer' } };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A page is at most 100 rows; the bound keeps a row's size known whatever a handler answers. */
const maxListed = 100;

/**
 * Reads the answer before it is serialised (no parse): the rows' ids of a health list, the id of a
 * created record, the machine number of a device a write changed.
 */
function readAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done) {
  const plan = routeConfigOf(request).auditPlan;
  const data = (payload as { data?: unknown } | null)?.data as Record<string, unknown> | null | undefined;
  if (plan && reply.statusCode < 400 && data && typeof data === 'object') {
    const rows = plan.listed ? data[plan.listed.rows] : undefined;
    if (Array.isArray(rows)) {
      const ids: string[] = [];
      for (const row of rows.slice(0, maxListed)) {
        const id = (row as { _id?: unknown } | null)?._id;
        if (typeof id === 'string' && uuid.test(id)) ids.push(id);
      }
      request.auditListedIds = ids;
    }
    if (plan.write?.id === 'answer' && typeof data._id === 'string') request.auditAnswerId = data._id;
    if (plan.write?.kind === 'device' && typeof data.machineNumber === 'string')
      request.auditMachineNumber ??= data.machineNumber;
  }
  done(null, payload);
}
type Done = (err: Error | null, payload: unknown) => void;

/** A field name as a schema writes it; anything else (it cannot be, after strict validation) is left out. */
const fieldName = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const maxFields = 50;

/**
 * The names of the fields a write set: the keys of its validated body. Strict schemas (decision
 * 020) refuse unknown keys, so these are the schema's own names, never something a client made
 * up; and only a write that succeeded is asked, so the body did pass validation.
 */
function fieldsOf(request: FastifyRequest): string[] | null {
  const names =
    request.auditFields ??
    (request.body && typeof request.body === 'object' && !Array.isArray(request.body)
      ? Object.keys(request.body)
      : []);
  const kept = names.filter((n) => fieldName.test(n)).slice(0, maxFields);
  return kept.length ? kept : null;
}

/**
 * A multipart write's field names, noted as its parts stream by: such a body is no object to read
 * them from. Only a write that succeeded is asked, and the service refuses a field it does not know.
 */
export async function* namingFields<T extends { fieldname: string }>(
  request: FastifyRequest,
  parts: AsyncIterable<T>,
): AsyncGenerator<T> {
  const names: string[] = [];
  request.auditFields = names;
  for await (const part of parts) {
    if (!names.includes(part.fieldname)) names.push(part.fieldname);
    yield part;
  }
}

export type RowRecord = {
  recordKind: string | null;
  recordId: string | null;
  changedFields: string[] | null;
  listedIds: string[] | null;
};
const none: RowRecord = { recordKind: null, recordId: null, changedFields: null, listedIds: null };

/** What a request's access row names: the record a write changed and its fields, or a list's ids. */
export function rowRecordOf(request: FastifyRequest, statusCode: number): RowRecord {
  const named = request.auditRecord;
  const config = routeConfigOf(request);
  const plan = config.auditPlan;
  // A failed request changed nothing and answered nothing.
  const succeeded = statusCode < 400;
  if (succeeded && plan?.listed)
    return request.auditListedIds
      ? { ...none, recordKind: plan.listed.kind, listedIds: request.auditListedIds }
      : none;
  const write = succeeded && config.access === 'admin' && !readMethods.has(request.method);
  // Every other read: nothing to name, and nothing made for it (this runs on every request).
  if (!write && !named) return none;
  const planned = write ? plan?.write : undefined;
  const id =
    named?.id ??
    // A reveal's own REVEAL row names the record; naming it here too would list the reveal twice.
    (!planned || request.auditRecordViewed
      ? undefined
      : planned.id === 'param'
        ? (request.params as { id?: string }).id
        : planned.id === 'self'
          ? request.auth?.userId
          : request.auditAnswerId);
  const kind = named?.kind ?? planned?.kind;
  // A bulk write names every record it acted on (decision 055), in the list reads' column.
  const acted = write && planned && request.auditActedIds?.length ? [...request.auditActedIds] : null;
  return {
    recordKind: (id || acted) && kind ? kind : null,
    recordId: id && kind ? id.slice(0, 64) : null,
    changedFields: write ? fieldsOf(request) : null,
    listedIds: acted,
  };
}

/** Plans every route as it registers; only the routes whose answer names something read it. */
export function installAuditRecords(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Admin routes have one method each; a route sharing a handler across methods is not planned.
    if (methods.length !== 1) return;
    const plan = auditPlanOf(methods[0]!, route.url, route.config?.access);
    if (!plan) return;
    route.config = { ...route.config, auditPlan: plan };
    const needsAnswer = plan.listed || plan.write?.id === 'answer' || plan.write?.kind === 'device';
    if (!needsAnswer) return;
    const own = route.preSerialization;
    route.preSerialization = own ? [...(Array.isArray(own) ? own : [own]), readAnswer] : readAnswer;
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set at registration (installAuditRecords): what this route's audit row names. */
    auditPlan?: AuditPlan;
  }
  interface FastifyRequest {
    /** The ids of the rows a list of health data answered. */
    auditListedIds?: string[];
    /** The records a bulk write acted on (decision 055): ids, at most the bulk limit. */
    auditActedIds?: readonly string[];
    /** The id of the record a create answered. */
    auditAnswerId?: string;
    /** The customer a request is about (decisions 087, 088): its audit rows carry it. */
    auditCustomerId?: string;
    /** A write's changed fields when the handler knows them better than the body's keys (multipart, a diff). */
    auditFields?: readonly string[];
  }
}
