import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { breakGlassMessages, type BreakGlassGrant } from '@app/contract/break-glass';
import { breakGlassTexts } from '@app/contract/break-glass-texts';
import { revealMessages } from '@app/contract/masking';
import { clearSession, startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, buildPatient, failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { ViewPatientPage } from '../pages/view-patient-page.tsx';

/*
 * Decision 082 on the patient page: an admin whose role cannot reveal may break the glass, giving a
 * reason; the values are shown on this page with when the access ends, and masked again once it has.
 */

const masked = buildPatient(1, { email: 'j•••@example.com', phone: '••••••4567', contactMasked: true });
const clear = { ...masked, email: 'jane.roe@example.com', phone: '5551234567', contactMasked: undefined };
let windowMs = 30 * 60_000;
let refusal: string | null = null;

const grant = (reason: string): BreakGlassGrant => {
  const declaredAt = Date.parse('2026-11-29T10:00:00.000Z');
  return {
    patient: clear,
    access: {
      _id: 'bg-1',
      patientId: masked._id,
      machineNumber: masked.machineNumber,
      userEmail: 'admin@example.com',
      userName: 'Ada',
      reason,
      declaredAt: new Date(declaredAt).toISOString(),
      expiresAt: new Date(declaredAt + windowMs).toISOString(),
      active: true,
      signedOffAt: null,
      signedOffByEmail: null,
      signedOffByName: null,
      signOffNote: null,
    },
  };
};

const api = serveTestApi((request, url) => {
  const path = url.pathname;
  if (path === `/api/v1/admin/patient/${masked._id}`) return ok(masked);
  if (path === `/api/v1/admin/patient/${masked._id}/break-glass` && request.method === 'POST') {
    if (refusal) return failure(403, refusal);
    return ok(
      grant((JSON.parse(request.body) as { reason: string }).reason),
      breakGlassMessages.declared,
      201,
    );
  }
  if (path.endsWith('/all'))
    return ok({ data: [], patientData: [], totalPages: 1, total: 0, page: 1, limit: 10 });
  return failure(404, 'Not found');
});
afterEach(() => {
  clearSession();
  windowMs = 30 * 60_000;
  refusal = null;
});

const openPatient = () =>
  renderPage({
    path: '/admin/view-patient/:id',
    Component: ViewPatientPage,
    at: `/admin/view-patient/${masked._id}`,
  });
const valueOf = (card: HTMLElement, label: string) =>
  within(card).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
const breakTheGlass = async (user: ReturnType<typeof userEvent.setup>, reason: string) => {
  const card = await screen.findByRole('region', { name: 'Patient Details' });
  await within(card).findByText('••••••4567');
  await user.click(within(card).getByRole('button', { name: breakGlassTexts.button }));
  const dialog = await screen.findByRole('dialog', { name: breakGlassTexts.dialogTitle });
  if (reason)
    await user.type(within(dialog).getByRole('textbox', { name: breakGlassTexts.reasonLabel }), reason);
  await user.click(within(dialog).getByRole('button', { name: breakGlassTexts.submit }));
  return { card, dialog };
};

describe('breaking the glass on the patient page', () => {
  it('asks for the reason first, then shows the values with when the access ends', async () => {
    startSession(buildAdminProfile(['patients.view']), 'a.b.c');
    const user = userEvent.setup();
    openPatient();
    const { card, dialog } = await breakTheGlass(user, '');
    expect(await within(dialog).findByText(breakGlassMessages.reasonRequired)).toBeTruthy();
    expect(
      within(dialog).getByRole('textbox', { name: breakGlassTexts.reasonLabel }).getAttribute('aria-invalid'),
    ).toBe('true');
    expect(api.requests.some((r) => r.url.endsWith('/break-glass'))).toBe(false);

    await user.type(
      within(dialog).getByRole('textbox', { name: breakGlassTexts.reasonLabel }),
      'Pump alarm at night',
    );
    await user.click(within(dialog).getByRole('button', { name: breakGlassTexts.submit }));
    await waitFor(() => expect(valueOf(card, 'Phone Number')).toBe('5551234567'));
    expect(valueOf(card, 'Email')).toBe('jane.roe@example.com');
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = api.requests.find((r) => r.url.endsWith('/break-glass'))!;
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body)).toEqual({ reason: 'Pump alarm at night' });
    expect(screen.getByRole('status').textContent).toMatch(/^Emergency access: shown until \d\d\/\d\d\/2026/);
    expect(within(card).queryByRole('button', { name: breakGlassTexts.button })).toBeNull();
  });

  it('masks the values again when the access ends, and says so', async () => {
    startSession(buildAdminProfile(['patients.view']), 'a.b.c');
    windowMs = 300;
    const user = userEvent.setup();
    openPatient();
    const { card } = await breakTheGlass(user, 'Ventilator fault');
    await waitFor(() => expect(valueOf(card, 'Phone Number')).toBe('5551234567'));
    await waitFor(() => expect(valueOf(card, 'Phone Number')).toBe('••••••4567'));
    expect(screen.getByRole('status').textContent).toBe(breakGlassTexts.ended);
    expect(within(card).getByRole('button', { name: breakGlassTexts.button })).toBeTruthy();
  });

  it("shows the API's refusal in the dialog and keeps the reason", async () => {
    startSession(buildAdminProfile(['patients.view']), 'a.b.c');
    refusal = breakGlassMessages.mayReveal;
    const user = userEvent.setup();
    openPatient();
    const { card, dialog } = await breakTheGlass(user, 'Pump alarm');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(breakGlassMessages.mayReveal);
    expect(
      (within(dialog).getByRole('textbox', { name: breakGlassTexts.reasonLabel }) as HTMLTextAreaElement)
        .value,
    ).toBe('Pump alarm');
    expect(valueOf(card, 'Phone Number')).toBe('••••••4567');
  });

  it('is not offered to an admin who may reveal: they reveal instead', async () => {
    startSession(buildAdminProfile(['patients.view', 'patients.reveal']), 'a.b.c');
    openPatient();
    const card = await screen.findByRole('region', { name: 'Patient Details' });
    await within(card).findByRole('button', { name: revealMessages.reveal });
    expect(within(card).queryByRole('button', { name: breakGlassTexts.button })).toBeNull();
  });
});
