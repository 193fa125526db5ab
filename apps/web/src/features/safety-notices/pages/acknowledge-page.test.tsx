import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { safetyNoticeMessages, type Acknowledgement } from '@app/contract/safety-notices';
import { safetyNoticeTexts } from '@app/contract/safety-notices-texts';
import { failure, ok } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { serveTestApi } from '#web/test/test-api.ts';
import { AcknowledgePage } from './acknowledge-page.tsx';

/* Decision 084: the clinic's page behind the mailed link, with no sign-in. */

let notice: Acknowledgement;
const token = 'A'.repeat(43);

const api = serveTestApi((request, url) => {
  if (url.pathname !== `/api/v1/safety-notice-ack/${token}`)
    return failure(404, safetyNoticeMessages.ackNotFound);
  if (request.method === 'POST') {
    const { name } = JSON.parse(request.body) as { name: string };
    notice = { ...notice, acknowledgedAt: '2030-01-03T09:00:00.000Z', acknowledgedBy: name };
  }
  return ok(notice);
});

beforeEach(() => {
  notice = {
    reference: 'FSN-7',
    title: 'Pump pressure may drift',
    description: 'Under load the pressure drifts.',
    kind: 'advisory',
    remedyText: 'Keep sessions short.',
    sentAt: '2030-01-02T11:00:00.000Z',
    machines: [{ machineNumber: 'MN-1', serialNumber: 'SN-1' }],
    acknowledgedAt: null,
    acknowledgedBy: null,
  };
});

const open = (at = `/safety-notice/${token}`) =>
  renderPage({ path: '/safety-notice/:token', Component: AcknowledgePage, at });

describe('the acknowledgement page', () => {
  it("shows the notice and the clinic's machines, and records the name once acknowledged", async () => {
    const user = userEvent.setup();
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Advisory notice FSN-7' })).toBeTruthy();
    expect(screen.getByText('Machine MN-1, serial SN-1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: safetyNoticeTexts.ackSubmit }));
    expect(await screen.findByText(safetyNoticeMessages.ackNameRequired)).toBeTruthy();
    await user.type(screen.getByLabelText(/^Your full name/), 'Dr. Nora North{Enter}');
    expect(await screen.findByText(/^Acknowledged by Dr. Nora North on/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: safetyNoticeTexts.ackSubmit })).toBeNull();
    expect(JSON.parse(api.requests.find((r) => r.method === 'POST')!.body)).toEqual({
      name: 'Dr. Nora North',
    });
  });

  it('says so when the link is not valid', async () => {
    open('/safety-notice/not-a-token');
    expect(await screen.findByText(safetyNoticeTexts.ackNotFound)).toBeTruthy();
  });
});
