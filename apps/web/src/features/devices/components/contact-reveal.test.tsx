import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { revealMessages } from '@app/contract/masking';
import { clearSession, startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, buildPatient, failure, ok, pageOf } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { ViewPatientPage } from '../pages/view-patient-page.tsx';

/*
 * Decision 045 on the patient page: the masked values as the API sends them, a Reveal button only
 * for an admin whose role carries patients.reveal, a reason asked before anything is shown, the
 * values for this view, and the record's access history.
 */

const masked = buildPatient(1, { email: 'j•••@example.com', phone: '••••••4567', contactMasked: true });
const clear = { ...masked, email: 'jane.roe@example.com', phone: '5551234567', contactMasked: undefined };
const admin = (permissions: string[]) => buildAdminProfile(permissions);

const api = serveTestApi((request, url) => {
  const path = url.pathname;
  if (path === `/api/v1/admin/patient/${masked._id}`) return ok(masked);
  if (path === `/api/v1/admin/patient/${masked._id}/reveal`) {
    const body = JSON.parse(request.body) as { reason?: string };
    return body.reason ? ok(clear) : failure(400, 'reason: choose why you need to see this');
  }
  if (path === `/api/v1/admin/patient/${masked._id}/access-history`) {
    // The reveal is in the history once it happened: the page must ask again after it.
    const revealed = api.requests.some((r) => r.url.endsWith('/reveal') && r.body.includes('reason'));
    const { rows, ...page } = pageOf(
      revealed
        ? [
            {
              _id: '9',
              at: '2026-11-24T10:00:00.000Z',
              userEmail: 'admin@example.com',
              location: '127.0.0.1',
              action: 'Revealed',
              detail: 'email, phone (reason: Billing)',
            },
          ]
        : [],
    );
    return ok({ history: rows, ...page });
  }
  if (path.endsWith('/all'))
    return ok({ data: [], patientData: [], totalPages: 1, total: 0, page: 1, limit: 10 });
  return failure(404, 'Not found');
});
afterEach(() => clearSession());

const openPatient = () =>
  renderPage({
    path: '/admin/view-patient/:id',
    Component: ViewPatientPage,
    at: `/admin/view-patient/${masked._id}`,
  });
const valueOf = (card: HTMLElement, label: string) =>
  within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('masked contact data on the patient page', () => {
  it('offers no Reveal and no access history to an admin without patients.reveal', async () => {
    startSession(admin(['patients.view']), 'a.b.c');
    openPatient();
    const card = await screen.findByRole('region', { name: 'Patient Details' });
    await within(card).findByText('j•••@example.com');
    expect(within(card).queryByRole('button', { name: revealMessages.reveal })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Access History' })).toBeNull();
    expect(api.requests.some((r) => r.url.includes('access-history'))).toBe(false);
  });

  it('reveals the values for this view after a reason is given, and lists the access history', async () => {
    startSession(admin(['patients.view', 'patients.reveal']), 'a.b.c');
    const user = userEvent.setup();
    openPatient();
    const card = await screen.findByRole('region', { name: 'Patient Details' });
    await within(card).findByText('••••••4567');
    await user.click(within(card).getByRole('button', { name: revealMessages.reveal }));
    const dialog = await screen.findByRole('dialog', { name: revealMessages.title });
    // Without a reason nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: revealMessages.reveal }));
    expect(await within(dialog).findByText(revealMessages.reasonRequired)).toBeTruthy();
    expect(api.requests.some((r) => r.url.endsWith('/reveal'))).toBe(false);
    await user.selectOptions(within(dialog).getByLabelText(revealMessages.reasonLabel), 'Billing');
    await user.click(within(dialog).getByRole('button', { name: revealMessages.reveal }));
    await waitFor(() => expect(valueOf(card, 'Phone Number')).toBe('5551234567'));
    expect(valueOf(card, 'Email')).toBe('jane.roe@example.com');
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = api.requests.find((r) => r.url.endsWith('/reveal'))!;
    expect(JSON.parse(sent.body)).toEqual({ reason: 'Billing' });
    expect(within(card).queryByRole('button', { name: revealMessages.reveal })).toBeNull();
    const history = await screen.findByRole('region', { name: 'Access History' });
    expect(await within(history).findByText('email, phone (reason: Billing)')).toBeTruthy();
  });
});
