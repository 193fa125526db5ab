import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestRoot } from '#web/test/test-root.tsx';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { clearSession, SESSION_STORAGE_KEY } from '#web/lib/session-store.ts';
import { startTestServer, type Recorded } from '#web/test/http-server.ts';
import { SignInPage } from './sign-in-page.tsx';

const admin = {
  _id: 'a1',
  userName: 'mfa',
  firstName: null,
  lastName: null,
  email: 'mfa@example.com',
  phone: null,
  profileImage: null,
  role: null,
  isDeletable: true,
};
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcde-fgh${i}k`);
const expired = 'Your sign-in has expired. Please sign in with your password again.';

/** The server's side of two-step sign-in, as the API answers it: passwords pick the step. */
function answer(request: Recorded) {
  const body = JSON.parse(request.body || '{}') as Record<string, string>;
  if (request.url.endsWith('/login'))
    return body.password === 'Enrol-Passw0rd'
      ? {
          status: 200,
          body: {
            code: 200,
            msg: 'Set up two-step sign-in to continue',
            data: { mfa: 'enrol', mfaToken: 'enrol.token.x' },
          },
        }
      : {
          status: 200,
          body: {
            code: 200,
            msg: 'Enter the code from your authenticator app',
            data: { mfa: 'verify', mfaToken: 'verify.token.x' },
          },
        };
  if (request.url.endsWith('/login/mfa')) {
    if (body.code === '123456' || body.code === 'abcde-fgh0k')
      return {
        status: 200,
        body: { code: 200, msg: 'Login successful', data: { accessToken: 'a.b.c', admin } },
      };
    if (body.code === '999999') return { status: 401, body: { code: 401, msg: expired, data: null } };
    return { status: 401, body: { code: 401, msg: 'Invalid or expired code', data: null } };
  }
  if (request.url.endsWith('/login/mfa/setup'))
    return {
      status: 200,
      body: {
        code: 200,
        msg: 'ok',
        data: {
          otpauthUri: 'otpauth://totp/x',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
          manualKey: 'ABCD EFGH IJKL MNOP',
        },
      },
    };
  if (request.url.endsWith('/login/mfa/confirm'))
    return body.code === '654321'
      ? {
          status: 200,
          body: {
            code: 200,
            msg: 'Two-step sign-in is on',
            data: { accessToken: 'e.n.r', admin, recoveryCodes },
          },
        }
      : { status: 400, body: { code: 400, msg: 'Invalid or expired code', data: null } };
  return { status: 404, body: { code: 404, msg: 'not found', data: null } };
}

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer(answer);
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
afterEach(() => clearSession());

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        Component: TestRoot,
        children: [
          { path: '/login-admin', Component: SignInPage },
          { path: '/admin/dashboard', element: <p>Dashboard screen</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

async function passPassword(password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), 'mfa@example.com');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('the code step of sign-in', () => {
  it('asks for the code after a correct password, with the field focused, and stores no session yet', async () => {
    renderAt('/login-admin');
    await passPassword('Right-Passw0rd');
    const code = await screen.findByLabelText('Authentication code');
    expect(document.activeElement).toBe(code);
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByText('Two-step sign-in')).toBeTruthy();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('requires a code, shows a refused code under the field, then signs in with the right one', async () => {
    const router = renderAt('/login-admin');
    await passPassword('Right-Passw0rd');
    const code = await screen.findByLabelText('Authentication code');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Code is required')).toBeTruthy();

    await userEvent.type(code, '000000{Enter}');
    expect(await screen.findByText('Invalid or expired code')).toBeTruthy();
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(
      document.getElementById(code.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent,
    ).toBe('Invalid or expired code');
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ mfaToken: 'verify.token.x', code: '000000' });

    await userEvent.clear(code);
    await userEvent.type(code, '123456{Enter}');
    expect(await screen.findByText('Dashboard screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).details).toMatchObject({
      email: admin.email,
      token: 'a.b.c',
    });
  });

  it('accepts a recovery code in the same field', async () => {
    renderAt('/login-admin');
    await passPassword('Right-Passw0rd');
    await userEvent.type(await screen.findByLabelText('Authentication code'), 'abcde-fgh0k{Enter}');
    expect(await screen.findByText('Dashboard screen')).toBeTruthy();
  });

  it('goes back to the password when the step has expired, and on request', async () => {
    renderAt('/login-admin');
    await passPassword('Right-Passw0rd');
    await userEvent.type(await screen.findByLabelText('Authentication code'), '999999{Enter}');
    expect(await screen.findByText(expired)).toBeTruthy();
    expect(await screen.findByLabelText('Email')).toBeTruthy();

    await passPassword('Right-Passw0rd');
    await screen.findByLabelText('Authentication code');
    await userEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByLabelText('Password')).toBeTruthy();
  });
});

describe('enrolment at sign-in (REQUIRE_MFA)', () => {
  it('shows the QR code and manual key, confirms a code, shows the recovery codes once, then enters the console', async () => {
    const router = renderAt('/login-admin');
    await passPassword('Enrol-Passw0rd');
    expect(
      await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toBeTruthy();
    expect(screen.getByTestId('mfa-manual-key').textContent).toBe('ABCD EFGH IJKL MNOP');
    const code = screen.getByLabelText('Code from the app');
    await userEvent.type(code, '12ab{Enter}');
    expect(await screen.findByText('Code must be the 6 digits from your authenticator app')).toBeTruthy();
    await userEvent.clear(code);
    await userEvent.type(code, '111111{Enter}');
    expect(await screen.findByText('Invalid or expired code')).toBeTruthy();
    await userEvent.clear(code);
    await userEvent.type(code, '654321{Enter}');

    const list = await screen.findByTestId('mfa-recovery-codes');
    expect(list.querySelectorAll('li')).toHaveLength(10);
    // No session until the admin has seen the codes.
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(await screen.findByText('Dashboard screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).details.token).toBe('e.n.r');
  });
});
