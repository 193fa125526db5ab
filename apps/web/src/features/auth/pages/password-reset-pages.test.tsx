import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, useLocation } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { startTestServer, type Answer, type Recorded } from '#web/test/http-server.ts';
import { EnterOtpPage } from './enter-otp-page.tsx';
import { ForgotPasswordPage } from './forgot-password-page.tsx';
import { ResetPasswordPage } from './reset-password-page.tsx';
import { renderRouter } from '#web/test/render-router.tsx';

/** What the test server answers per path; each test sets its own. */
let answers: Record<string, Answer> = {};
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer(
    (request: Recorded) =>
      answers[request.url] ?? { status: 404, body: { code: 404, msg: 'Route not found', data: null } },
  );
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  answers = {};
  server.requests.length = 0;
});

const ok = (msg: string, data: unknown = null): Answer => ({ status: 200, body: { code: 200, msg, data } });

function StateProbe({ label }: { label: string }) {
  const location = useLocation();
  return (
    <p>
      {label} {JSON.stringify(location.state)}
    </p>
  );
}

function renderAt(path: string, state?: unknown) {
  const router = createMemoryRouter(
    [
      { path: '/forgot-password', Component: ForgotPasswordPage },
      { path: '/enter-otp', Component: EnterOtpPage },
      { path: '/reset-password/:token', Component: ResetPasswordPage },
      { path: '/login-admin', element: <StateProbe label="Sign-in screen" /> },
    ],
    { initialEntries: [{ pathname: path, state }] },
  );
  return renderRouter(router);
}

describe('/forgot-password', () => {
  it('asks for a valid email', async () => {
    renderAt('/forgot-password');
    await userEvent.click(await screen.findByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });

  it('sends the email and moves to /enter-otp with the email in navigation state', async () => {
    answers['/api/v1/admin/forgot-password'] = ok(
      'If an account exists for this email, an OTP has been sent to it.',
    );
    const router = renderAt('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'ann@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('ann@example.test')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/enter-otp');
    expect(router.state.location.state).toEqual({ email: 'ann@example.test' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ email: 'ann@example.test' });
  });

  it('says so when the request fails', async () => {
    answers['/api/v1/admin/forgot-password'] = {
      status: 429,
      body: { code: 429, msg: 'Too many attempts. Please try again later.', data: null },
    };
    const router = renderAt('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'ann@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/forgot-password');
  });
});

describe('/enter-otp', () => {
  it('sends a visitor without an email in state back to /forgot-password', async () => {
    const router = renderAt('/enter-otp');
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('requires the OTP', async () => {
    renderAt('/enter-otp', { email: 'ann@example.test' });
    await userEvent.click(await screen.findByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByText('OTP is required')).toBeTruthy();
  });

  it('shows the spec message for a wrong OTP', async () => {
    answers['/api/v1/admin/verify-email'] = {
      status: 400,
      body: { code: 400, msg: 'Invalid OTP. Please try again.', data: null },
    };
    const router = renderAt('/enter-otp', { email: 'ann@example.test' });
    await userEvent.type(await screen.findByLabelText('OTP'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify OTP' }));
    expect(await screen.findByText('Invalid OTP. Please try again.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/enter-otp');
  });

  it('goes on to /reset-password/{token} with the email in state', async () => {
    answers['/api/v1/admin/verify-email'] = ok('OTP verified', {
      rememberToken: 'tok_123',
      email: 'ann@example.test',
    });
    const router = renderAt('/enter-otp', { email: 'ann@example.test' });
    await userEvent.type(await screen.findByLabelText('OTP'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify OTP' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password/tok_123'));
    expect(router.state.location.state).toEqual({ email: 'ann@example.test' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ email: 'ann@example.test', otp: '654321' });
  });

  it('resends the OTP and says so, or says it failed', async () => {
    answers['/api/v1/admin/resend-otp'] = ok('OTP resent to your email.');
    renderAt('/enter-otp', { email: 'ann@example.test' });
    await userEvent.click(await screen.findByRole('button', { name: 'Resend OTP' }));
    expect(await screen.findByText('OTP resent to your email.')).toBeTruthy();
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ email: 'ann@example.test' });

    answers['/api/v1/admin/resend-otp'] = {
      status: 429,
      body: { code: 429, msg: 'Please wait 30 seconds before asking for another OTP.', data: null },
    };
    await userEvent.click(screen.getByRole('button', { name: 'Resend OTP' }));
    expect(await screen.findByText('Failed to resend OTP.')).toBeTruthy();
  });
});

describe('/reset-password/{token}', () => {
  it('checks the length and that both passwords match', async () => {
    renderAt('/reset-password/tok_123', { email: 'ann@example.test' });
    await userEvent.type(await screen.findByLabelText('New Password'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('New Password'));
    await userEvent.type(screen.getByLabelText('New Password'), 'Secret-123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret-124');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Passwords must match')).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });

  it('shows the spec message when the reset fails', async () => {
    answers['/api/v1/admin/reset-password'] = {
      status: 400,
      body: { code: 400, msg: 'This reset link is invalid or has expired. Please start again.', data: null },
    };
    renderAt('/reset-password/tok_123', { email: 'ann@example.test' });
    await userEvent.type(await screen.findByLabelText('New Password'), 'Secret-123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password. Try again.')).toBeTruthy();
  });

  it('sends token, password and email, toasts, and after 2 seconds goes to /login-admin', async () => {
    answers['/api/v1/admin/reset-password'] = ok('Your password has been reset. Please sign in.');
    const router = renderAt('/reset-password/tok_123', { email: 'ann@example.test' });
    await userEvent.type(await screen.findByLabelText('New Password'), 'Secret-123');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'Secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Your password has been reset. Please sign in.')).toBeTruthy();
    const toastAt = Date.now();
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      rememberToken: 'tok_123',
      password: 'Secret-123',
      email: 'ann@example.test',
    });
    expect(router.state.location.pathname).toBe('/reset-password/tok_123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-admin'), { timeout: 4000 });
    expect(Date.now() - toastAt).toBeGreaterThanOrEqual(1800);
  });

  it('sends a visitor without an email in state back to /forgot-password', async () => {
    const router = renderAt('/reset-password/tok_123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
  });
});
