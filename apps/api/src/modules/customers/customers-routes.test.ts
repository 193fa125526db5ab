import { randomBytes } from 'node:crypto';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerMessages, customerPaths, type Customer } from '@app/contract/customers';
import { accessLogs } from '#api/db/schema/logs.ts';
import { signInWithPermissions } from '#api/test/admin-with-permissions.ts';
import { createTestApp, type TestApp } from '#api/test/test-app.ts';

/*
 * Customers (issue 39 item 1, decision 087): add, list (search, country facet, sort, page), read,
 * change, delete, export; every bad input a 400 naming its field; customers.view and
 * customers.manage; each write's audit row carries the customer.
 */

let t: TestApp;
let token: string;
const tag = randomBytes(3).toString('hex');
const unknownId = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

const pathOf = (body: string) =>
  (JSON.parse(body) as { data?: { errors?: { path: string }[] } }).data?.errors?.map((e) => e.path);
const add = (payload: Record<string, unknown>, as = token) =>
  t.injectAs(as, { method: 'POST', url: customerPaths.list, payload });
async function customer(name: string, over: Record<string, unknown> = {}): Promise<Customer> {
  const res = await add({ name, country: 'Germany', ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Customer;
}
const list = async (query: string) => {
  const res = await t.injectAs(token, { method: 'GET', url: `${customerPaths.list}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { customers: Customer[]; total: number; totalPages: number };
};

describe('customers', () => {
  it('adds a customer with name and country, the rest blank, and answers it', async () => {
    const res = await add({ name: `  Clinic ${tag} North `, country: 'Germany' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().msg).toBe(customerMessages.created);
    expect(res.json().data).toMatchObject({
      name: `Clinic ${tag} North`,
      country: 'Germany',
      address: '',
      billingEmail: '',
      taxId: '',
      notes: '',
      requireMfa: false,
      machineCount: 0,
    });
  });

  it('refuses bad input with a 400 naming each field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ country: 'Germany' }, 'name'],
      [{ name: '   ', country: 'Germany' }, 'name'],
      [{ name: `X ${tag}` }, 'country'],
      [{ name: `X ${tag}`, country: 'DE', billingEmail: 'not-an-email' }, 'billingEmail'],
      [{ name: `X ${tag}`, country: 'DE', requireMfa: 'yes' }, 'requireMfa'],
      [{ name: `X ${tag}`, country: 'DE', notes: 'n'.repeat(4001) }, 'notes'],
    ];
    for (const [payload, field] of cases) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(pathOf(res.body)).toContain(field);
    }
    const unknown = await add({ name: `X ${tag}`, country: 'DE', colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toContain('colour');
  });

  it('refuses a name another customer has, in any case, on add and on change', async () => {
    const first = await customer(`Taken ${tag}`);
    const again = await add({ name: `TAKEN ${tag}`, country: 'France' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(customerMessages.nameTaken);
    const other = await customer(`Other ${tag}`);
    const renamed = await t.injectAs(token, {
      method: 'PUT',
      url: customerPaths.customer(other._id),
      payload: { name: `taken ${tag}` },
    });
    expect(renamed.statusCode).toBe(409);
    // Its own name in another case is no conflict.
    const same = await t.injectAs(token, {
      method: 'PUT',
      url: customerPaths.customer(first._id),
      payload: { name: `TAKEN ${tag}` },
    });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('changes only the fields sent, and reads the customer back', async () => {
    const c = await customer(`Change ${tag}`, { billingEmail: 'billing@clinic.test', taxId: 'DE123' });
    const res = await t.injectAs(token, {
      method: 'PUT',
      url: customerPaths.customer(c._id),
      payload: { notes: 'Prefers mornings', requireMfa: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const read = await t.injectAs(token, { method: 'GET', url: customerPaths.customer(c._id) });
    expect(read.json().data).toMatchObject({
      billingEmail: 'billing@clinic.test',
      taxId: 'DE123',
      notes: 'Prefers mornings',
      requireMfa: true,
    });
    const blank = await t.injectAs(token, {
      method: 'PUT',
      url: customerPaths.customer(c._id),
      payload: { country: '' },
    });
    expect(blank.statusCode).toBe(400);
    expect(pathOf(blank.body)).toEqual(['country']);
  });

  it('lists by search and country, sorted and paged, with the countries as a facet', async () => {
    const s = randomBytes(3).toString('hex');
    for (const [name, country] of [
      [`Alpha ${s}`, 'Austria'],
      [`Beta ${s}`, 'Belgium'],
      [`Gamma ${s}`, 'Austria'],
    ] as const)
      await customer(name, { country, taxId: `VAT-${s}` });
    const all = await list(`search=${s}&limit=2`);
    expect(all.total).toBe(3);
    expect(all.totalPages).toBe(2);
    expect(all.customers.map((c) => c.name)).toEqual([`Alpha ${s}`, `Beta ${s}`]);
    const desc = await list(`search=${s}&sort=name&direction=desc`);
    expect(desc.customers.map((c) => c.name)).toEqual([`Gamma ${s}`, `Beta ${s}`, `Alpha ${s}`]);
    const austria = await list(`search=vat-${s}&country=Austria`);
    expect(austria.customers.map((c) => c.name)).toEqual([`Alpha ${s}`, `Gamma ${s}`]);
    const facets = await t.injectAs(token, { method: 'GET', url: `${customerPaths.facets}?search=${s}` });
    expect(facets.json().data.countries).toEqual([
      { value: 'Austria', label: 'Austria', count: 2 },
      { value: 'Belgium', label: 'Belgium', count: 1 },
    ]);
    const bad = await t.injectAs(token, { method: 'GET', url: `${customerPaths.list}?sort=colour` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('sort');
  });

  it('exports the matching customers as CSV in the list order, audited before the first byte', async () => {
    const s = randomBytes(3).toString('hex');
    await customer(`Zulu ${s}`, { country: 'Spain', billingEmail: `z${s}@clinic.test` });
    await customer(`Yankee, "${s}"`, { country: 'Spain' });
    const res = await t.injectAs(token, {
      method: 'GET',
      url: `${customerPaths.export}?search=${s}&columns=name,country,billingEmail`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toEqual([
      'Name,Country,Billing email',
      `"Yankee, ""${s}""",Spain,`,
      `Zulu ${s},Spain,z${s}@clinic.test`,
    ]);
    const rows = await t.database.db
      .select({ resource: accessLogs.resource })
      .from(accessLogs)
      .where(like(accessLogs.resource, `%customers%search=${s}%`))
      .orderBy(accessLogs.id);
    expect(rows.map((r) => r.resource)).toEqual([
      `EXPORTING customers: search=${s}`,
      `EXPORT customers 2 rows: search=${s}`,
    ]);
  });

  it('deletes a customer that never held a machine; 404 for one not there', async () => {
    const c = await customer(`Gone ${tag}`);
    await t.stepUp(token);
    const res = await t.injectAs(token, { method: 'DELETE', url: customerPaths.customer(c._id) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe(customerMessages.deleted);
    const again = await t.injectAs(token, { method: 'GET', url: customerPaths.customer(c._id) });
    expect(again.statusCode).toBe(404);
    expect(again.json().msg).toBe(customerMessages.notFound);
    const bad = await t.injectAs(token, { method: 'GET', url: customerPaths.customer('nope') });
    expect(bad.statusCode).toBe(400);
    const missing = await t.injectAs(token, { method: 'DELETE', url: customerPaths.customer(unknownId) });
    expect(missing.statusCode).toBe(404);
  });

  it("puts the customer on its writes' audit rows, which its activity lists", async () => {
    const c = await customer(`Audited ${tag}`);
    await t.injectAs(token, { method: 'PUT', url: customerPaths.customer(c._id), payload: { notes: 'x' } });
    // The request rows are batched: wait until both have landed.
    await expect
      .poll(async () =>
        (
          await t.database.db
            .select({ resource: accessLogs.resource, recordKind: accessLogs.recordKind })
            .from(accessLogs)
            .where(and(eq(accessLogs.customerId, c._id)))
            .orderBy(desc(accessLogs.id))
        ).map((r) => `${r.resource} ${r.recordKind}`),
      )
      .toEqual(['PUT /api/v1/admin/customers/:id customer', 'POST /api/v1/admin/customers customer']);
    const activity = await t.injectAs(token, { method: 'GET', url: customerPaths.activity(c._id) });
    expect(activity.statusCode, activity.body).toBe(200);
    expect(activity.json().data.activity.map((a: { resource: string }) => a.resource)).toEqual([
      'PUT /api/v1/admin/customers/:id',
      'POST /api/v1/admin/customers',
    ]);
  });
});

describe('customers and permissions', () => {
  it('lets customers.view read and not change; refuses both to a role without them', async () => {
    const c = await customer(`Perm ${tag}`);
    const viewer = (await signInWithPermissions(t, token, ['customers.view'])).token;
    const none = (await signInWithPermissions(t, token, ['devices.view'])).token;
    expect((await t.injectAs(viewer, { method: 'GET', url: customerPaths.list })).statusCode).toBe(200);
    expect((await t.injectAs(viewer, { method: 'GET', url: customerPaths.machines(c._id) })).statusCode).toBe(
      200,
    );
    const change = await t.injectAs(viewer, {
      method: 'PUT',
      url: customerPaths.customer(c._id),
      payload: { notes: 'no' },
    });
    expect(change.statusCode).toBe(403);
    expect(change.json().msg).toContain('customers.manage');
    expect((await add({ name: `No ${tag}`, country: 'DE' }, viewer)).statusCode).toBe(403);
    const read = await t.injectAs(none, { method: 'GET', url: customerPaths.customer(c._id) });
    expect(read.statusCode).toBe(403);
    expect(read.json().msg).toContain('customers.view');
    expect((await t.injectAs(none, { method: 'GET', url: customerPaths.export })).statusCode).toBe(403);
  });
});
