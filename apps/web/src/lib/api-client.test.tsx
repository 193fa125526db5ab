import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestRoot } from '../test/test-root.tsx';
import { startTestServer } from '../test/http-server.ts';
import { ApiError, apiClient, setApiBaseUrl, upload } from './api-client.ts';
import { reloadSessionFromStorage, SESSION_STORAGE_KEY } from './session-store.ts';
import { setNavigator } from './navigation.ts';

let server: Awaited<ReturnType<typeof startTestServer>>;
let expiredAt = 0;
let steppedUp = false;
let sessionGone = false;

beforeAll(async () => {
  server = await startTestServer((request) => {
    if (request.url.startsWith('/api/expired')) expiredAt = Date.now();
    if (request.url.startsWith('/api/expired'))
      return { status: 401, body: { code: 401, msg: 'Session expired', data: null } };
    if (request.url.startsWith('/api/list'))
      return { status: 400, body: { code: 400, msg: 'No Device found', data: null } };
    // jsdom's XMLHttpRequest (upload) asks first whether the headers may be sent cross-origin.
    if (request.method === 'OPTIONS')
      return {
        status: 204,
        headers: {
          'access-control-allow-headers': 'authorization, x-timezone, accept',
          'access-control-allow-methods': 'POST',
        },
      };
    // A dangerous action that keeps asking for a step-up, and one that is satisfied by it.
    if (request.url === '/api/v1/admin/profile/step-up') {
      if (sessionGone) return { status: 401, body: { code: 401, msg: 'Session expired', data: null } };
      steppedUp = true;
      return { status: 200, body: { code: 200, msg: 'Password confirmed', data: { steppedUpUntil: 'x' } } };
    }
    if (request.url.startsWith('/api/always-asks') || (request.url.startsWith('/api/upload') && !steppedUp))
      return {
        status: 403,
        body: {
          code: 403,
          msg: 'Confirm your password to continue',
          data: { stepUpRequired: true, needsCode: false },
        },
      };
    if (request.url.startsWith('/api/upload'))
      return { status: 201, body: { code: 201, msg: 'Added', data: { size: request.body.length } } };
    if (request.url.startsWith('/api/broken'))
      return {
        status: 409,
        body: { code: 409, msg: 'Serial number taken', data: { field: 'serialNumber' } },
      };
    return { status: 200, body: { code: 200, msg: 'ok', data: { echo: request.url } } };
  });
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  steppedUp = false;
  sessionGone = false;
});

/** Confirms the step-up dialog once it shows. */
async function confirmStepUp() {
  await answerStepUp();
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

async function answerStepUp() {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm your password to continue' });
  const user = userEvent.setup();
  await user.type(within(dialog).getByLabelText('Your password'), 'Passw0rd');
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
}

const storeSession = () => {
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      details: { _id: '1', email: 'a@b.co', token: 'header.payload.sig', timeZone: 'Europe/Berlin' },
      toggle: false,
      deviceDetail: { id: 'd' },
      userDetails: { userName: 'a' },
    }),
  );
  reloadSessionFromStorage();
};

function CallsExpiredEndpoint() {
  const [state, setState] = useState('calling');
  useEffect(() => {
    apiClient
      .get('/api/expired')
      .catch((error: unknown) =>
        setState(error instanceof ApiError && error.handled ? 'handled' : 'unhandled'),
      );
  }, []);
  return <p>{state}</p>;
}

describe('api client', () => {
  it('sends the bearer token and the stored time zone, and reads the envelope', async () => {
    storeSession();
    const answer = await apiClient.get<{ echo: string }>('/api/thing', {
      query: { page: 2, search: '', limit: 10 },
    });
    expect(answer).toEqual({ code: 200, msg: 'ok', data: { echo: '/api/thing?page=2&limit=10' } });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer header.payload.sig');
    expect(server.requests[0]!.headers['x-timezone']).toBe('Europe/Berlin');
  });

  it('sends no credentials on an anonymous call such as sign-in', async () => {
    storeSession();
    await apiClient.post('/api/login', { email: 'a@b.co' }, { anonymous: true });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ email: 'a@b.co' });
  });

  it('throws an ApiError with the status, the server msg and data', async () => {
    const error = await apiClient.post('/api/broken', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      msg: 'Serial number taken',
      message: 'Serial number taken',
      data: { field: 'serialNumber' },
    });
  });

  it('treats a 400 on a list fetch as an empty result', async () => {
    await expect(apiClient.getList('/api/list')).resolves.toEqual({
      code: 400,
      msg: 'No Device found',
      data: null,
    });
    await expect(apiClient.get('/api/list')).rejects.toMatchObject({ status: 400 });
  });

  it('on a 401 shows the server msg, clears the session and goes to /login-admin after 100 ms', async () => {
    storeSession();
    const router = createMemoryRouter(
      [
        {
          Component: TestRoot,
          children: [
            { path: '/admin/thing', Component: CallsExpiredEndpoint },
            { path: '/login-admin', element: <p>Sign-in screen</p> },
          ],
        },
      ],
      { initialEntries: ['/admin/thing'] },
    );
    let navigatedAt = 0;
    router.subscribe((state) => {
      if (state.location.pathname === '/login-admin' && !navigatedAt) navigatedAt = Date.now();
    });
    render(<RouterProvider router={router} />);

    expect(await screen.findByText('Session expired')).toBeTruthy();
    expect(await screen.findByText('handled')).toBeTruthy();
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!);
    expect(stored).toEqual({ details: null, toggle: false, deviceDetail: null, userDetails: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-admin'), { timeout: 1000 });
    // Not at once: the toast is seen first, then the redirect.
    expect(navigatedAt - expiredAt).toBeGreaterThanOrEqual(95);
    expect(await screen.findByText('Sign-in screen')).toBeTruthy();
    await act(async () => {});
  });

  it('sends a request again once after a step-up; a second refusal goes to the caller, with no second dialog', async () => {
    storeSession();
    const call = apiClient.post('/api/always-asks', { a: 1 }).catch((e: unknown) => e);
    await confirmStepUp();
    const error = await call;
    expect(error).toMatchObject({ status: 403, msg: 'Confirm your password to continue' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/always-asks',
      '/api/v1/admin/profile/step-up',
      '/api/always-asks',
    ]);
    expect(JSON.parse(server.requests[2]!.body)).toEqual({ a: 1 });
  });

  it('asks for a step-up on an upload too, and sends the same file again', async () => {
    storeSession();
    const form = new FormData();
    form.append('apk', new Blob(['x'.repeat(500)]), 'app.apk');
    const sent = upload<{ size: number }>('/api/upload', form);
    await confirmStepUp();
    const answer = await sent;
    expect(answer.code).toBe(201);
    const uploads = server.requests.filter((r) => r.url === '/api/upload' && r.method === 'POST');
    expect(uploads).toHaveLength(2);
    for (const sentFile of uploads) expect(sentFile.body).toContain('x'.repeat(500));
    expect(answer.data.size).toBe(uploads[1]!.body.length);
  });

  it('never asks on an anonymous call or for the step-up itself', async () => {
    await expect(apiClient.post('/api/always-asks', {}, { anonymous: true })).rejects.toMatchObject({
      status: 403,
    });
    await expect(apiClient.post('/api/always-asks', {}, { stepUp: false })).rejects.toMatchObject({
      status: 403,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests).toHaveLength(2);
  });

  it('when the session ended meanwhile, closes the dialog and hands the caller the handled 401, sending nothing more', async () => {
    storeSession();
    sessionGone = true;
    const visited: string[] = [];
    const restoreNavigator = setNavigator((to) => visited.push(to));
    const call = apiClient.post('/api/always-asks', {}).catch((e: unknown) => e);
    await answerStepUp();
    expect(await call).toMatchObject({ status: 401, handled: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.map((r) => r.url)).toEqual(['/api/always-asks', '/api/v1/admin/profile/step-up']);
    // The 401's redirect still follows; waiting for it also keeps its timer from outliving the file.
    await waitFor(() => expect(visited).toEqual(['/login-admin']), { timeout: 1000 });
    restoreNavigator();
  });
});
