import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAccessLog, testId } from '#web/test/fixtures.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { LogWords } from './log-words.tsx';

const patientId = testId(3);
const viewed = buildAccessLog(1, {
  resource: `VIEW patient ${patientId}`,
  machineNumber: 'MN-1060',
  recordKind: 'patient',
  recordId: patientId,
});

describe('an access log in words', () => {
  it("links a look at a patient's record to the patient's page", async () => {
    renderPage({
      path: '/admin/logs-management',
      Component: () => <LogWords log={viewed} />,
      at: '/admin/logs-management',
    });
    const link = await screen.findByRole('link', { name: 'Viewed patient on MN-1060' });
    expect(link.getAttribute('href')).toBe(`/admin/view-patient/${patientId}`);
  });

  it("names a device change's fields and links the device's page (decision 048)", async () => {
    const deviceId = testId(4);
    const changed = buildAccessLog(3, {
      resource: 'PUT /api/v1/admin/machine/:id',
      machineNumber: 'MN-1060',
      recordKind: 'device',
      recordId: deviceId,
      changedFields: ['status'],
    });
    renderPage({
      path: '/admin/logs-management',
      Component: () => <LogWords log={changed} />,
      at: '/admin/logs-management',
    });
    const link = await screen.findByRole('link', { name: 'Changed device MN-1060: status' });
    expect(link.getAttribute('href')).toBe(`/admin/device-details/${deviceId}`);
  });

  it('names a change to a device without a link when the row names no record', async () => {
    renderPage({
      path: '/admin/logs-management',
      Component: () => <LogWords log={buildAccessLog(2, { resource: 'PUT /api/v1/admin/machine/:id' })} />,
      at: '/admin/logs-management',
    });
    expect(await screen.findByText('Changed device MN-1')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
