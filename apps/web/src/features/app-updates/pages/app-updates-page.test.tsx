/// <reference types="node" />
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync } from 'node:zlib';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeBinaryManifest } from '@app/contract/android-manifest-writer';
import type { AppUpdateListItem } from '@app/contract/app-updates';
import { buildZip } from '@app/contract/zip-writer';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { startSession } from '#web/lib/session-store.ts';
import { AppUpdatesPage } from './app-updates-page.tsx';
import { renderRouter } from '#web/test/render-router.tsx';
import { buildAdminProfile } from '#web/test/fixtures.ts';

const admin = buildAdminProfile(['devices.view', 'app-updates.publish']);

const saved: AppUpdateListItem = {
  _id: 'u1',
  id: 'u1',
  appName: 'com.example.device',
  versionCode: 12,
  versionName: '1.2.0',
  remark: 'Security fix',
  updateDesc: 'Fixes',
  updateType: 2,
  apkUrl: 'http://127.0.0.1/api/v1/app/updates/u1/apk',
  fileName: 'device-1.2.0.apk',
  apkSize: 1234,
  apkSha256: 'ab'.repeat(32),
  packageName: 'com.example.device',
  createdAt: '2025-01-02T03:04:05.000Z',
  rolloutPercent: 100,
  respectsWindow: false,
  rolloutState: 'active',
  approvalPending: null,
  approvalRequestedBy: null,
  deviceCount: 3,
  progress: {
    targeted: 3,
    updated: 3,
    onOldVersion: 0,
    otherApp: 0,
    appUnknown: 0,
    notReported: 0,
    waitingForWindow: 0,
    waitingForTreatment: 0,
  },
  signatures: [],
};

/** A release rolled out to 25 %: four machines targeted, one of them updated. */
const staged: AppUpdateListItem = {
  ...saved,
  _id: 'u2',
  id: 'u2',
  versionName: '1.3.0',
  rolloutPercent: 25,
  respectsWindow: false,
  progress: {
    targeted: 5,
    updated: 1,
    onOldVersion: 3,
    otherApp: 0,
    appUnknown: 0,
    notReported: 1,
    waitingForWindow: 0,
    waitingForTreatment: 0,
  },
};

/** An APK as Android's build tools make it: a ZIP whose AndroidManifest.xml is binary XML, deflated. */
const apkFile = (name: string, manifest: { packageName: string; versionCode: number; versionName: string }) =>
  new File(
    [
      buildZip(
        [
          { name: 'AndroidManifest.xml', data: writeBinaryManifest(manifest), deflate: true },
          { name: 'classes.dex', data: 'dex\n035\0' },
        ],
        (data) => deflateRawSync(data),
      ),
    ],
    name,
  );
const release12 = { packageName: 'com.example.device', versionCode: 12, versionName: '1.2.0' };

let rows: AppUpdateListItem[] = [];
type Recorded = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
type Answer = { status: number; body?: unknown };

/**
 * A real HTTP server for the page. Not the shared test server: jsdom's XMLHttpRequest (the upload
 * path) enforces CORS, so this one also answers the preflight its headers cause.
 */
async function startCorsServer(respond: (request: Recorded) => Answer) {
  const requests: Recorded[] = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, x-timezone, content-type, accept',
    'access-control-allow-methods': 'GET, POST',
  };
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
    req.on('end', () => {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors).end();
        return;
      }
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const answer = respond(recorded);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...cors });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

let server: Awaited<ReturnType<typeof startCorsServer>>;
const answer = (request: Recorded): Answer => {
  if (request.method === 'GET' && request.url.startsWith('/api/v1/admin/system/updates/all')) {
    return {
      status: 200,
      body: {
        code: 200,
        msg: 'Success',
        data: { allSystems: rows, totalPages: 1, total: rows.length, page: 1, limit: 10 },
      },
    };
  }
  if (request.method === 'POST' && request.url === '/api/v1/admin/system/updates') {
    rows = [saved];
    return { status: 201, body: { code: 201, msg: 'App update added successfully', data: saved } };
  }
  if (request.method === 'POST' && request.url === `/api/v1/admin/system/updates/${staged._id}/rollout`) {
    rows = [{ ...staged, rolloutState: 'paused' }];
    return { status: 200, body: { code: 200, msg: 'Rollout paused', data: rows[0] } };
  }
  return { status: 404, body: { code: 404, msg: 'Route not found', data: null } };
};
beforeAll(async () => {
  server = await startCorsServer(answer);
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  rows = [];
  server.requests.length = 0;
  startSession(admin, 'a.b.c');
});

function renderPage() {
  const router = createMemoryRouter([{ path: '/admin/app-update', Component: AppUpdatesPage }], {
    initialEntries: ['/admin/app-update'],
  });
  renderRouter(router);
}

describe('App Update page', () => {
  it('shows the empty text, then every validation message of the Add App Update form', async () => {
    // applyAccept off: the picker's .apk filter is only a hint; the form must still catch other files.
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    expect(await screen.findByText('No System Update found.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add App Update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add App Update' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    for (const msg of [
      'App name is required',
      'Version code is required',
      'Version name is required',
      'Remark is required',
      'Update description is required',
      'Update type is required',
      'File is required',
    ]) {
      expect(await within(dialog).findByText(msg)).toBeTruthy();
    }
    await user.upload(
      within(dialog).getByLabelText(/APK File/),
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
    );
    expect(await within(dialog).findByText('Only .apk files are allowed')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /App Name/ }).getAttribute('aria-invalid')).toBe('true');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  }, 20_000);

  it('uploads the form as multipart, closes on save and lists the new update with its download link', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await screen.findByText('No System Update found.');
    await user.click(screen.getByRole('button', { name: 'Add App Update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add App Update' });
    await user.type(within(dialog).getByLabelText(/App Name/), 'com.example.device');
    await user.selectOptions(within(dialog).getByLabelText(/Update Type/), 'Force');
    await user.selectOptions(within(dialog).getByLabelText(/First Stage/), '25 % of the machines');
    await user.click(within(dialog).getByLabelText('Respect maintenance windows'));
    await user.type(within(dialog).getByLabelText(/Version Code/), '12');
    await user.type(within(dialog).getByLabelText(/Version Name/), '1.2.0');
    await user.type(within(dialog).getByLabelText(/Remark/), 'Security fix');
    await user.type(within(dialog).getByLabelText(/Update Description/), 'Fixes');
    await user.upload(within(dialog).getByLabelText(/APK File/), apkFile('device-1.2.0.apk', release12));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(post.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(post.headers.authorization).toBe('Bearer a.b.c');
    for (const part of [
      'name="appName"',
      'com.example.device',
      'name="updateType"',
      'name="rolloutPercent"\r\n\r\n25\r\n',
      'name="respectsWindow"\r\n\r\ntrue\r\n',
      'name="apk"; filename="device-1.2.0.apk"',
      'AndroidManifest.xml',
    ]) {
      expect(post.body).toContain(part);
    }
    expect(await screen.findByText('App update added successfully')).toBeTruthy();
    const row = (await screen.findByText('com.example.device')).closest('tr')!;
    expect(within(row).getByText('1.2.0')).toBeTruthy();
    // Machines Running: the machines whose heartbeat last named versionCode 12.
    const header = screen.getAllByRole('columnheader').map((h) => h.textContent);
    // Update Type is off until chosen, so the list fits a 1280 px window (issue 35); the form sent it.
    expect(header).not.toContain('Update Type');
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells[header.indexOf('Machines Running')]).toBe('3');
    expect(
      within(row).getByRole('link', { name: 'Download com.example.device 1.2.0' }).getAttribute('href'),
    ).toBe(saved.apkUrl);
  }, 20_000);

  it('offers no Download for a withdrawn release, and says it is withdrawn', async () => {
    rows = [{ ...staged, rolloutState: 'withdrawn' }, saved];
    renderPage();
    expect(await screen.findByRole('link', { name: 'Download com.example.device 1.2.0' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download com.example.device 1.3.0' })).toBeNull();
    const row = screen.getByRole('row', { name: /1\.3\.0/ });
    expect(within(row).getAllByText('Withdrawn').length).toBeGreaterThan(0);
  });

  it('offers Add App Update only to a role carrying app-updates.publish', async () => {
    startSession(buildAdminProfile(['devices.view']), 'a.b.c');
    renderPage();
    expect(await screen.findByText('No System Update found.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add App Update' })).toBeNull();
  });
});

describe("Add App Update reads the APK's manifest", () => {
  async function openForm() {
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await screen.findByText('No System Update found.');
    await user.click(screen.getByRole('button', { name: 'Add App Update' }));
    return { user, dialog: await screen.findByRole('dialog', { name: 'Add App Update' }) };
  }

  it('fills the version fields, and an empty App Name with the package, from the picked file', async () => {
    const { user, dialog } = await openForm();
    await user.type(within(dialog).getByLabelText(/Version Code/), '1');
    const apkInput = within(dialog).getByLabelText(/APK File/);
    await user.upload(apkInput, apkFile('device.apk', { ...release12, versionName: '1.2.0-rc1' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText<HTMLInputElement>(/Version Code/).value).toBe('12'),
    );
    expect(within(dialog).getByLabelText<HTMLInputElement>(/Version Name/).value).toBe('1.2.0-rc1');
    expect(within(dialog).getByLabelText<HTMLInputElement>(/App Name/).value).toBe('com.example.device');
    // What was read is said beside the file, and tied to the input.
    const hint = within(dialog).getByText(
      /package com.example.device, version code 12, version name 1.2.0-rc1/,
    );
    expect(apkInput.getAttribute('aria-describedby')).toContain(hint.id);
    // A name the admin typed stays; another file fills the versions anew.
    await user.clear(within(dialog).getByLabelText(/App Name/));
    await user.type(within(dialog).getByLabelText(/App Name/), 'Treatment App');
    await user.upload(
      apkInput,
      apkFile('device.apk', { ...release12, versionCode: 13, versionName: '1.3.0' }),
    );
    await waitFor(() =>
      expect(within(dialog).getByLabelText<HTMLInputElement>(/Version Code/).value).toBe('13'),
    );
    expect(within(dialog).getByLabelText<HTMLInputElement>(/Version Name/).value).toBe('1.3.0');
    expect(within(dialog).getByLabelText<HTMLInputElement>(/App Name/).value).toBe('Treatment App');
  });

  it('shows under the file a file without a readable manifest, and sends nothing', async () => {
    const { user, dialog } = await openForm();
    await user.type(within(dialog).getByLabelText(/App Name/), 'com.example.device');
    await user.selectOptions(within(dialog).getByLabelText(/Update Type/), 'Force');
    await user.type(within(dialog).getByLabelText(/Version Code/), '12');
    await user.type(within(dialog).getByLabelText(/Version Name/), '1.2.0');
    await user.type(within(dialog).getByLabelText(/Remark/), 'Security fix');
    await user.type(within(dialog).getByLabelText(/Update Description/), 'Fixes');
    const apkInput = within(dialog).getByLabelText(/APK File/);
    await user.upload(apkInput, new File(['PK-fake-apk'], 'fake.apk'));
    const error = await within(dialog).findByText(
      /^The APK file has no readable AndroidManifest.xml \(AndroidManifest.xml: .+\)$/,
    );
    expect(apkInput.getAttribute('aria-invalid')).toBe('true');
    expect(apkInput.getAttribute('aria-describedby')).toContain(error.id);
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(/^The APK file has no readable AndroidManifest.xml/)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add App Update' })).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });
});

describe('App Update rollout', () => {
  it("shows each release's rollout as a bar and pauses it after a confirmation, by keyboard", async () => {
    const user = userEvent.setup();
    rows = [staged];
    renderPage();
    const bar = await screen.findByRole('progressbar', { name: /Rollout of com.example.device 1.3.0/ });
    expect(bar.getAttribute('aria-valuenow')).toBe('20');
    expect(screen.getByText('1 of 5 updated, 3 on an older version, 1 not reported yet')).toBeTruthy();
    expect(screen.getByText(/Rolling out · 25 %/)).toBeTruthy();
    // What a rolling release offers: advance to the next stage, pause, halt, withdraw.
    for (const label of ['Advance to 50 %', 'Pause', 'Halt', 'Withdraw'])
      expect(screen.getByRole('button', { name: `${label}: com.example.device 1.3.0` })).toBeTruthy();

    screen.getByRole('button', { name: 'Pause: com.example.device 1.3.0' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /Pause: com.example.device 1.3.0/ });
    await user.click(within(dialog).getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText('Rollout paused')).toBeTruthy();
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body)).toEqual({ action: 'pause' });
    expect(await screen.findByRole('button', { name: 'Resume: com.example.device 1.3.0' })).toBeTruthy();
  }, 20_000);

  it('does not offer Approve to the admin who asked for what waits, and says why; another admin gets it', async () => {
    // The signed-in admin (a1) asked for release 1.4.0; another admin (a2) for the 100 % stage of 1.5.0.
    const own: AppUpdateListItem = {
      ...saved,
      _id: 'u3',
      id: 'u3',
      versionName: '1.4.0',
      approvalPending: 'release',
      approvalRequestedBy: admin._id,
    };
    const others: AppUpdateListItem = {
      ...staged,
      _id: 'u4',
      id: 'u4',
      versionName: '1.5.0',
      approvalPending: 'full-stage',
      approvalRequestedBy: 'a2',
    };
    rows = [own, others];
    renderPage();
    const ownRow = (await screen.findByText('1.4.0')).closest('tr')!;
    expect(within(ownRow).queryByRole('button', { name: /^Approve/ })).toBeNull();
    const cells = within(ownRow).getAllByRole('cell');
    const actions = cells[cells.length - 1]!;
    expect(actions.textContent).toContain('Waiting for another admin to approve');
    // What else the release allows is still offered to the asker.
    expect(within(actions).getByRole('button', { name: 'Withdraw: com.example.device 1.4.0' })).toBeTruthy();

    const othersRow = screen.getByText('1.5.0').closest('tr')!;
    expect(within(othersRow).getByRole('button', { name: 'Approve: com.example.device 1.5.0' })).toBeTruthy();
    expect(othersRow.textContent).not.toContain('Waiting for another admin to approve');
  });
});
