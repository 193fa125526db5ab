import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildCustomer, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { signedInForEachTest, signInWith } from '#web/test/session.ts';
import { AddSubscriptionModal } from './add-subscription-modal.tsx';

/* Issue 39: the payment link names the customer it is for, picked by typing; left empty, the machine's holder. */

signedInForEachTest();

const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/customers') {
    const { rows, ...rest } = pageOf([buildCustomer(1), buildCustomer(2)]);
    return ok({ customers: rows, ...rest });
  }
  if (url.pathname.startsWith('/api/v1/admin/subscrption/add') && request.method === 'POST')
    return ok({ _id: 's1' }, 'Subscription created and the payment link sent', 201);
  return failure(404, 'Route not found');
});

const open = () => {
  const Form = () => <AddSubscriptionModal show onClose={() => {}} />;
  renderPage({
    path: '/admin/subscription-management',
    Component: Form,
    at: '/admin/subscription-management',
  });
  return screen.findByRole('dialog', { name: 'Add Subscription' });
};

describe('Add Subscription and its customer', { timeout: 30_000 }, () => {
  it('sends the customer picked', async () => {
    const user = userEvent.setup();
    const dialog = await open();
    await user.type(within(dialog).getByLabelText(/Full Name/), 'Ada Lovelace');
    await user.type(within(dialog).getByLabelText(/Email/), 'ada@example.com');
    await user.type(within(dialog).getByLabelText(/Machine Serial Number/), 'SN-1');
    await user.type(within(dialog).getByLabelText(/Amount/), '10');
    await user.selectOptions(within(dialog).getByLabelText(/Payment Type/), 'One Time');
    await user.click(within(dialog).getByRole('combobox', { name: /Customer/ }));
    await user.click(await within(dialog).findByRole('option', { name: /Clinic 2/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Subscription' }));
    expect(await screen.findByText('Subscription created and the payment link sent')).toBeTruthy();
    const sent = api.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(sent.body).customerId).toBe(testId(2, 9));
  });

  it('offers no customer picker without customers.view', async () => {
    signInWith(['subscriptions.view', 'subscriptions.manage']);
    const dialog = await open();
    expect(within(dialog).queryByRole('combobox', { name: /Customer/ })).toBeNull();
  });
});
