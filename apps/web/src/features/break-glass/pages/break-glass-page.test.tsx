import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { breakGlassMessages, type BreakGlassAccess } from '@app/contract/break-glass';
import { breakGlassTexts } from '@app/contract/break-glass-texts';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { BreakGlassPage } from './break-glass-page.tsx';

/*
 * Decision 082: the review screen lists each emergency access awaiting sign-off or signed off, and a
 * reviewer signs one off with a note; never their own.
 */

const buildAccess = (n: number, over: Partial<BreakGlassAccess> = {}): BreakGlassAccess => ({
  _id: testId(n, 7),
  patientId: testId(n),
  machineNumber: `MN-${1000 + n}`,
  userEmail: `breaker${n}@example.com`,
  userName: `Breaker ${n}`,
  reason: `Emergency number ${n}`,
  declaredAt: `2030-01-03T0${n}:00:00.000Z`,
  expiresAt: `2030-01-03T0${n}:30:00.000Z`,
  active: false,
  signedOffAt: null,
  signedOffByEmail: null,
  signedOffByName: null,
  signOffNote: null,
  ...over,
});

let accesses: BreakGlassAccess[] = [];
let hold: Promise<Answer> | null = null;
let broken = false;

const api = serveTestApi((request, url) => {
  if (hold) return hold;
  if (broken) return failure(500, 'Something went wrong');
  if (url.pathname === '/api/v1/admin/break-glass') {
    const signed = url.searchParams.get('state') === 'signed-off';
    const { rows, ...rest } = pageOf(accesses.filter((a) => (a.signedOffAt !== null) === signed));
    return ok({ accesses: rows, ...rest });
  }
  const signing = /^\/api\/v1\/admin\/break-glass\/([^/]+)\/sign-off$/.exec(url.pathname);
  const access = accesses.find((a) => a._id === signing?.[1]);
  if (access && request.method === 'POST') {
    const { note } = JSON.parse(request.body) as { note: string };
    const done = {
      ...access,
      signedOffAt: '2030-01-04T10:00:00.000Z',
      signedOffByEmail: 'admin@example.com',
      signedOffByName: 'Ada',
      signOffNote: note,
    };
    accesses = accesses.map((a) => (a === access ? done : a));
    return ok(done, breakGlassMessages.signedOff);
  }
  return failure(404, 'Not found');
});

beforeEach(() => {
  hold = null;
  broken = false;
  accesses = [
    buildAccess(2, { active: true }),
    buildAccess(1),
    buildAccess(3, { userEmail: 'admin@example.com', userName: 'Ada' }),
  ];
  startSession(buildAdminProfile(['security.review']), 'a.b.c');
});

const open = (at = '/admin/break-glass') =>
  renderPage({ path: '/admin/break-glass', Component: BreakGlassPage, at });

describe('Break-glass Review', () => {
  it('lists the uses awaiting sign-off: who, which patient, why and whether the access lasts', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: breakGlassTexts.title })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Awaiting sign-off' });
    const row = (await within(table).findByText('Emergency number 2')).closest('tr')!;
    expect(within(row).getByText('Breaker 2')).toBeTruthy();
    expect(within(row).getByText('breaker2@example.com')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Patient on MN-1002' }).getAttribute('href')).toBe(
      `/admin/view-patient/${testId(2)}`,
    );
    expect(within(row).getByText(/^Still open until/)).toBeTruthy();
    const ended = (await within(table).findByText('Emergency number 1')).closest('tr')!;
    expect(within(ended).getByText(breakGlassTexts.accessEnded)).toBeTruthy();
    // One's own use cannot be signed off here: it says so instead of offering it.
    const own = within(table).getByText('Emergency number 3').closest('tr')!;
    expect(within(own).getByText(breakGlassTexts.ownUse)).toBeTruthy();
    expect(within(own).queryByRole('button')).toBeNull();
  });

  it('signs a use off with a note, which is required, and moves it to Signed off', async () => {
    const user = userEvent.setup();
    open();
    const table = await screen.findByRole('table', { name: 'Awaiting sign-off' });
    await within(table).findByText('Emergency number 1');
    await user.click(
      within(table).getByRole('button', { name: "Sign off: Breaker 1's emergency access on MN-1001" }),
    );
    const dialog = await screen.findByRole('dialog', { name: breakGlassTexts.signOffTitle });
    expect(within(dialog).getByText('Emergency number 1')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: breakGlassTexts.signOff }));
    expect(await within(dialog).findByText(breakGlassMessages.noteRequired)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.type(
      within(dialog).getByRole('textbox', { name: breakGlassTexts.noteLabel }),
      'Called the ward',
    );
    await user.click(within(dialog).getByRole('button', { name: breakGlassTexts.signOff }));
    expect(await screen.findByText(breakGlassMessages.signedOff)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = api.requests.find((r) => r.method === 'POST')!;
    expect(sent.url).toBe(`/api/v1/admin/break-glass/${testId(1, 7)}/sign-off`);
    expect(JSON.parse(sent.body)).toEqual({ note: 'Called the ward' });
    await waitFor(() => expect(within(table).queryByText('Emergency number 1')).toBeNull());

    await user.click(screen.getByRole('tab', { name: 'Signed off' }));
    const signed = await screen.findByRole('table', { name: 'Signed off' });
    const row = (await within(signed).findByText('Called the ward')).closest('tr')!;
    expect(within(row).getByText('Ada')).toBeTruthy();
    expect(within(row).queryByRole('button')).toBeNull();
  });

  it('says when nothing awaits sign-off, and shows a loading state first', async () => {
    accesses = [];
    const held = heldAnswer();
    hold = held.answer;
    open();
    expect(await screen.findByRole('status')).toBeTruthy();
    hold = null;
    held.release(ok({ accesses: [], ...pageOf([]) }));
    expect(await screen.findByText(breakGlassTexts.emptyOpen)).toBeTruthy();
  });

  it('offers to try again when the list cannot be read', async () => {
    broken = true;
    const user = userEvent.setup();
    open('/admin/break-glass?state=signed-off');
    const retry = await screen.findByRole('button', { name: 'Try again' });
    broken = false;
    await user.click(retry);
    expect(await screen.findByText(breakGlassTexts.emptySignedOff)).toBeTruthy();
  });
});
