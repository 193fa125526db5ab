import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { erasureMessages } from '@app/contract/erasure';
import { erasureTexts } from '@app/contract/erasure-texts';
import { startSession } from '#web/lib/session-store.ts';
import { buildAdminProfile, failure, ok, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { ErasureRequestAction } from './erasure-request-modal.tsx';

/* Decision 085: the patient page records an erasure request, for a role carrying erasure.manage. */

const patientId = testId(4);
const api = serveTestApi((request, url) => {
  if (url.pathname === '/api/v1/admin/erasure-requests' && request.method === 'POST')
    return ok({ _id: testId(4, 9) }, erasureMessages.recorded, 201);
  return failure(404, 'Not found');
});

const open = () =>
  renderPage({ path: '/p', Component: () => <ErasureRequestAction patientId={patientId} />, at: '/p' });

describe('Record erasure request', () => {
  beforeEach(() => startSession(buildAdminProfile(['erasure.manage', 'patients.view']), 'a.b.c'));

  it('is not offered without erasure.manage', () => {
    startSession(buildAdminProfile(['patients.view']), 'a.b.c');
    open();
    expect(screen.queryByRole('button', { name: erasureTexts.start })).toBeNull();
  });

  it('asks how the request arrived, records it and opens the request', async () => {
    const user = userEvent.setup();
    open();
    await user.click(screen.getByRole('button', { name: erasureTexts.start }));
    const dialog = await screen.findByRole('dialog', { name: erasureTexts.startTitle });
    await user.click(within(dialog).getByRole('button', { name: erasureTexts.start }));
    expect(await within(dialog).findByText(erasureMessages.channelInvalid)).toBeTruthy();
    await user.selectOptions(
      within(dialog).getByLabelText(new RegExp(erasureTexts.channelLabel.slice(0, 10))),
      'letter',
    );
    await user.type(within(dialog).getByLabelText(/Note/), 'Ref 12');
    await user.click(within(dialog).getByRole('button', { name: erasureTexts.start }));
    expect(await screen.findByText(`Navigated to /admin/erasure-requests/${testId(4, 9)}`)).toBeTruthy();
    await waitFor(() => expect(api.requests).toHaveLength(1));
    const body = JSON.parse(api.requests[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ patientId, channel: 'letter', note: 'Ref 12' });
    expect(body.receivedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
