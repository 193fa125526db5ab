import type { Group } from '@app/contract/groups';
import { failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer, Recorded } from '#web/test/http-server.ts';
import { serveTestApi } from '#web/test/test-api.ts';

/*
 * The groups' routes for the page's tests: a list searched by name, and the changes, each answered
 * with the API's message. Every request is recorded (`api.requests`) so a test reads what was sent.
 */

export const nightWard: Group = {
  _id: testId(1),
  name: 'Night ward',
  kind: 'static',
  filter: null,
  maintenanceWindow: { start: '02:00', end: '04:00', timeZone: 'Europe/Berlin' },
  machineCount: 12,
  createdAt: '2030-01-02T03:04:05.000Z',
  createdBy: 'ops@example.com',
};
export const germanyOffline: Group = {
  _id: testId(2),
  name: 'Germany offline',
  kind: 'dynamic',
  filter: { country: 'Germany', online: 'offline' },
  maintenanceWindow: null,
  machineCount: 3,
  createdAt: '2030-01-03T03:04:05.000Z',
  createdBy: 'admin@example.com',
};

/** A refusal naming one field, as the API's validation sends it. */
export const refusal = (path: string, message: string): Answer => ({
  status: 400,
  body: { code: 400, msg: message, data: { errors: [{ path, message }] } },
});

export const state = {
  groups: [] as Group[],
  listFails: false,
  /** What a change answers instead of its success, if anything. */
  refuse: null as ((request: Recorded) => Answer | null) | null,
};

function respond(request: Recorded, url: URL): Answer {
  const refused = request.method !== 'GET' ? state.refuse?.(request) : null;
  if (refused) return refused;
  const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
  if (url.pathname === '/api/v1/admin/groups' && request.method === 'GET') {
    if (state.listFails) return failure(500, 'Something went wrong');
    const search = url.searchParams.get('search')?.toLowerCase() ?? '';
    const { rows, ...rest } = pageOf(
      state.groups.filter((g) => g.name.toLowerCase().includes(search)),
      { page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')) },
    );
    return ok({ groups: rows, ...rest });
  }
  if (url.pathname === '/api/v1/admin/groups' && request.method === 'POST') {
    const group = {
      ...germanyOffline,
      ...body,
      _id: testId(state.groups.length + 10),
      filter: body.filter ?? null,
      machineCount: 0,
    } as Group;
    state.groups = [...state.groups, group];
    // Its own words, so a test sees the toast is the API's msg.
    return ok(group, `Created group ${group.name}`, 201);
  }
  if (url.pathname === '/api/v1/admin/settings' && request.method === 'PATCH')
    return ok({ values: body, machinesChanged: 40 }, 'Settings saved');
  const [, id, rest] = /^\/api\/v1\/admin\/groups\/([^/]+)\/?(.*)$/.exec(url.pathname) ?? [];
  const group = state.groups.find((g) => g._id === id);
  if (!group) return failure(404, 'Group not found');
  const replace = (next: Group) => (state.groups = state.groups.map((g) => (g === group ? next : g)));
  if (rest === '' && request.method === 'PUT') {
    replace({ ...group, name: String(body.name) });
    return ok({ ...group, name: body.name }, 'Group updated');
  }
  if (rest === '' && request.method === 'DELETE') {
    state.groups = state.groups.filter((g) => g !== group);
    return ok(null, `Deleted group ${group.name}`);
  }
  if (rest === 'maintenance-window' && request.method === 'PUT') {
    const window = body.window as Group['maintenanceWindow'];
    replace({ ...group, maintenanceWindow: window });
    const said = window ? 'Maintenance window saved' : 'Maintenance window removed';
    return ok({ window, machineCount: group.machineCount }, said);
  }
  if (rest === 'settings' && request.method === 'PATCH')
    return ok({ values: body, machinesChanged: group.machineCount }, 'Settings saved');
  return failure(404, 'Not found');
}

/** Serves the routes above for the tests of one file; each test starts with the two groups. */
export function serveGroupsApi() {
  return serveTestApi(respond);
}

export const resetGroups = () => {
  state.groups = [nightWard, germanyOffline];
  state.listFails = false;
  state.refuse = null;
};

/** The JSON bodies sent with `method`, in order. */
export const sent = (requests: readonly Recorded[], method: string) =>
  requests.filter((r) => r.method === method).map((r) => JSON.parse(r.body || 'null') as unknown);
