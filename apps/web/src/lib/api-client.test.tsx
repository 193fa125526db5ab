import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestRoot } from '../test/test-root.tsx';
import { startTestServer } from '../test/http-server.ts';
import { ApiError, apiClient, setApiBaseUrl } from './api-client.ts';
import { reloadSessionFromStorage, SESSION_STORAGE_KEY } from './session-store.ts';

let server: Awaited<ReturnType<typeof startTestServer>>;
let expiredAt = 0;

beforeAll(async () => {
  server = await startTestServer((request) => {
    if (request.url.startsWith('/api/expired')) expiredAt = Date.now();
    if (request.url.startsWith('/api/expired'))
      return { status: 401, body: { code: 401, msg: 'Session expired', data: null } };
    if (request.url.startsWith('/api/list'))
      return { status: 400, body: { code: 400, msg: 'No Device found', data: null } };
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
});

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
});
