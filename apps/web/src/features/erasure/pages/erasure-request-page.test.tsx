import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { erasureMessages, type ErasureRequest } from '@app/contract/erasure';
import { erasureTexts } from '@app/contract/erasure-texts';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { ErasureRequestPage } from './erasure-request-page.tsx';
import { ErasureRequestsPage } from './erasure-requests-page.tsx';

/*
 * Decision 085: the Erasure Requests screen lists requests by state; a request's page decides it
 * once, signed (erase, erase in part with the parts and the legal basis, refuse), and then shows what
 * was done and kept and why, with the signature.
 */

const id = testId(1, 9);
const buildRequest = (over: Partial<ErasureRequest> = {}): ErasureRequest => ({
  _id: id,
  state: 'open',
  patientId: testId(1),
  patientLabel: 'Patient 1042 on MN-1001',
  patientName: 'Ada Lovelace',
  machineNumber: 'MN-1001',
  channel: 'email',
  receivedOn: '2030-01-02',
  note: 'Ref 77',
  requestedAt: '2030-01-03T09:00:00.000Z',
  requestedByName: 'Rita Recorder',
  requestedByEmail: 'rita@example.com',
  decidedAt: null,
  decidedByName: null,
  decidedByEmail: null,
  partsErased: [],
  partsKept: [],
  legalBasis: null,
  basisNote: null,
  outcome: [],
  signatures: [],
  ...over,
});

let request: ErasureRequest;
const api = serveTestApi((req, url) => {
  if (url.pathname === '/api/v1/admin/profile/mfa') return ok({ enabled: false });
  if (url.pathname === '/api/v1/admin/erasure-requests') {
    const rows = [request].filter((r) => r.state === (url.searchParams.get('state') ?? 'open'));
    const { rows: requests, ...rest } = pageOf(rows);
    return ok({ requests, ...rest });
  }
  if (url.pathname === `/api/v1/admin/erasure-requests/${id}`) return ok(request);
  if (url.pathname === `/api/v1/admin/erasure-requests/${id}/decision` && req.method === 'POST') {
    const body = JSON.parse(req.body) as {
      parts: ErasureRequest['partsErased'];
      signature: { password: string };
    };
    if (body.signature.password !== 'right')
      return {
        status: 400,
        body: {
          code: 400,
          msg: 'Password is incorrect',
          data: { errors: [{ path: 'signature.password', message: 'Password is incorrect' }] },
        },
      };
    request = buildRequest({
      state: 'erased-in-part',
      patientName: 'Erased patient',
      decidedAt: '2030-01-04T10:00:00.000Z',
      decidedByName: 'Dora Decider',
      decidedByEmail: 'dora@example.com',
      partsErased: body.parts,
      partsKept: ['contact', 'treatments'],
      legalBasis: 'retention-duty',
      basisNote: 'WGBO, 20 years',
      outcome: [{ place: 'Treatment records', done: 'kept, de-identified (the name replaced)', count: 4 }],
      signatures: [
        {
          id: 's1',
          signerName: 'Dora Decider',
          signerEmail: 'dora@example.com',
          meaning: 'responsibility',
          signedAt: '2030-01-04T10:00:00.000Z',
          contentHash: 'ab'.repeat(32),
        },
      ],
    });
    return ok(request, erasureMessages.erasedInPart);
  }
  return failure(404, 'Not found');
});

beforeEach(() => {
  request = buildRequest();
  startSession(buildAdminProfile(['erasure.manage']), 'a.b.c');
});

describe('Erasure Requests', () => {
  it('lists the requests awaiting a decision by patient id and machine, linked to each', async () => {
    renderPage({
      path: '/admin/erasure-requests',
      Component: ErasureRequestsPage,
      at: '/admin/erasure-requests',
    });
    const table = await screen.findByRole('table', { name: 'Awaiting decision' });
    const link = await within(table).findByRole('link', { name: 'Erasure request: Patient 1042 on MN-1001' });
    expect(link.getAttribute('href')).toBe(`/admin/erasure-requests/${id}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText('Rita Recorder')).toBeTruthy();
    expect(within(row).getByText('Email')).toBeTruthy();
  });

  it('decides in part: parts and legal basis asked for, a wrong password under its field, then the record', async () => {
    const user = userEvent.setup();
    renderPage({
      path: '/admin/erasure-requests/:id',
      Component: ErasureRequestPage,
      at: `/admin/erasure-requests/${id}`,
    });
    await user.click(await screen.findByRole('button', { name: erasureTexts.decide }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Erase in part' }));
    await user.click(within(dialog).getByRole('button', { name: 'Sign and erase' }));
    expect(await within(dialog).findByText(erasureMessages.partsRequired)).toBeTruthy();
    expect(within(dialog).getByText(erasureMessages.keptBasisRequired)).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('checkbox', { name: 'Identity' }));
    await user.selectOptions(
      within(dialog).getByLabelText(new RegExp(erasureTexts.keptBasisLabel)),
      'retention-duty',
    );
    await user.type(within(dialog).getByLabelText(new RegExp(erasureTexts.basisNoteLabel)), 'WGBO, 20 years');
    await user.selectOptions(within(dialog).getByLabelText(/Meaning/), 'responsibility');
    await user.type(within(dialog).getByLabelText(/Your password/), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Sign and erase' }));
    expect(await within(dialog).findByText('Password is incorrect')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText(/Your password/));
    await user.type(within(dialog).getByLabelText(/Your password/), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Sign and erase' }));
    expect(await screen.findByText(erasureMessages.erasedInPart)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = api.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(JSON.parse(sent.body)).toEqual({
      decision: 'erase-in-part',
      parts: ['identity'],
      legalBasis: 'retention-duty',
      basisNote: 'WGBO, 20 years',
      signature: { meaning: 'responsibility', password: 'right' },
    });
    const kept = await screen.findByRole('region', { name: erasureTexts.keptTitle });
    expect(within(kept).getByText('Kept: Contact details, Treatment records.')).toBeTruthy();
    expect(within(kept).getByText(/Legal duty to keep medical records/)).toBeTruthy();
    const done = screen.getByRole('region', { name: erasureTexts.outcomeTitle });
    expect(within(done).getByText('kept, de-identified (the name replaced)')).toBeTruthy();
    expect(screen.getByText(/Signed by Dora Decider/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: erasureTexts.decide })).toBeNull();
  });
});
