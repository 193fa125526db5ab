import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerMessages, type Customer } from '@app/contract/customers';
import { buildCustomer, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { CustomersPage } from './customers-page.tsx';

/* Issue 39 item 1: the Customers list, its country filter and sort, and Add Customer with the server's refusals. */

let customers: Customer[] = [];
let refusal: { status: number; body: unknown } | null = null;
let listFails = false;
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/preferences') return ok({ lists: {} });
  if (url.pathname === '/api/v1/admin/views') return ok({ views: [] });
  if (url.pathname === '/api/v1/admin/customers/facets')
    return ok({ countries: [{ value: 'Germany', label: 'Germany', count: 2 }] });
  if (url.pathname === '/api/v1/admin/customers' && request.method === 'POST') {
    if (refusal) return refusal;
    return ok(buildCustomer(9, JSON.parse(request.body) as Partial<Customer>), customerMessages.created, 201);
  }
  if (url.pathname === '/api/v1/admin/customers') {
    if (listFails) return failure(503, 'The database is restarting: try again in a moment');
    const country = url.searchParams.get('country');
    const { rows, ...rest } = pageOf(customers.filter((c) => !country || c.country === country));
    return ok({ customers: rows, ...rest });
  }
  if (url.pathname.startsWith('/api/v1/admin/customers/')) return ok(buildCustomer(9));
  return failure(404, 'Route not found');
});

beforeEach(() => {
  customers = [buildCustomer(1), buildCustomer(2), buildCustomer(3)];
  refusal = null;
  listFails = false;
});
signedInForEachTest();

const open = () => renderPage({ path: '/admin/customers', Component: CustomersPage, at: '/admin/customers' });

describe('Customers', { timeout: 30_000 }, () => {
  it('lists the customers, each name opening its page, and filters them by country', async () => {
    const user = userEvent.setup();
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Customers' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Customers' });
    const row = (await within(table).findByRole('link', { name: 'Clinic 2' })).closest('tr')!;
    expect(within(table).getByRole('link', { name: 'Clinic 2' }).getAttribute('href')).toBe(
      `/admin/customers/${testId(2, 9)}`,
    );
    expect(within(row).getByText('France')).toBeTruthy();
    expect(within(row).getByText('billing2@clinic.example')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Country'), 'Germany');
    await waitFor(() => expect(within(table).queryByText('Clinic 2')).toBeNull());
    expect(within(table).getByText('Clinic 3')).toBeTruthy();
    expect(api.requests.some((r) => r.url.includes('country=Germany'))).toBe(true);
  });

  it('sorts by a column header, asking the server', async () => {
    const user = userEvent.setup();
    open();
    const table = await screen.findByRole('table', { name: 'Customers' });
    await within(table).findByText('Clinic 1');
    await user.click(within(table).getByRole('button', { name: /Country/ }));
    await waitFor(() =>
      expect(
        api.requests.some((r) => r.url.includes('sort=country') && r.url.includes('direction=asc')),
      ).toBe(true),
    );
  });

  it('says when there is no customer', async () => {
    customers = [];
    open();
    expect(await screen.findByText(customerMessages.empty)).toBeTruthy();
  });

  it('shows a list that could not be loaded, with Try again', async () => {
    const user = userEvent.setup();
    listFails = true;
    open();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(screen.getAllByText('The database is restarting: try again in a moment').length).toBeGreaterThan(
      0,
    );
    listFails = false;
    await user.click(retry);
    expect(await screen.findByRole('link', { name: 'Clinic 1' })).toBeTruthy();
  });

  it('adds a customer: the required fields first, then each field the server refuses under it, nothing typed lost', async () => {
    const user = userEvent.setup();
    refusal = {
      status: 400,
      body: {
        code: 400,
        msg: `${customerMessages.billingEmailInvalid}; taxId must be at most 60 characters`,
        data: {
          errors: [
            { path: 'billingEmail', message: customerMessages.billingEmailInvalid },
            { path: 'taxId', message: 'Tax id must be at most 60 characters' },
          ],
        },
      },
    };
    open();
    await user.click(await screen.findByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Customer' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(customerMessages.nameRequired)).toBeTruthy();
    expect(within(dialog).getByText(customerMessages.countryRequired)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Harbour Clinic');
    await user.type(within(dialog).getByLabelText(/^Country/), 'Portugal');
    await user.type(within(dialog).getByLabelText(/^Tax id/), 'PT1');
    await user.click(within(dialog).getByLabelText(/Require two-step sign-in/));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Tax id must be at most 60 characters')).toBeTruthy();
    expect(within(dialog).getByText(customerMessages.billingEmailInvalid)).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/^Tax id/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect((within(dialog).getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Harbour Clinic');
    expect((within(dialog).getByLabelText(/Require two-step/) as HTMLInputElement).checked).toBe(true);
    const sent = api.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(sent.body)).toEqual({
      name: 'Harbour Clinic',
      country: 'Portugal',
      address: '',
      billingEmail: '',
      taxId: 'PT1',
      notes: '',
      requireMfa: true,
    });
  });

  it('puts a taken name under Name', async () => {
    const user = userEvent.setup();
    refusal = { status: 409, body: { code: 409, msg: customerMessages.nameTaken, data: null } };
    open();
    await user.click(await screen.findByRole('button', { name: 'Add Customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Customer' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Clinic 1');
    await user.type(within(dialog).getByLabelText(/^Country/), 'Germany');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(customerMessages.nameTaken)).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
  });

  it('offers no Add or Edit without customers.manage', async () => {
    signInWith(['customers.view']);
    open();
    await screen.findByText('Clinic 1');
    expect(screen.queryByRole('button', { name: 'Add Customer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Clinic 1' })).toBeNull();
  });
});
