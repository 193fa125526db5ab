import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { outboxTexts, type OutboxMessage } from '@app/contract/outbox';
import { failure, ok, pageOf, testId } from '#web/test/fixtures.ts';
import type { Answer } from '#web/test/http-server.ts';
import { renderPage } from '#web/test/render-router.tsx';
import { signedInForEachTest } from '#web/test/session.ts';
import { heldAnswer, serveTestApi } from '#web/test/test-api.ts';
import { OutboxPage } from './outbox-page.tsx';

const buildMessage = (n: number, over: Partial<OutboxMessage> = {}): OutboxMessage => ({
  _id: testId(n, 7),
  to: `clinic${n}@example.com`,
  subject: `Message ${n}`,
  status: 'sent',
  attempts: 1,
  lastError: null,
  createdAt: `2030-01-0${n}T10:00:00.000Z`,
  sentAt: `2030-01-0${n}T10:00:01.000Z`,
  nextAttemptAt: null,
  holdsSecret: false,
  ...over,
});

let messages: OutboxMessage[] = [];
let delivers = true;
let hold: Promise<Answer> | null = null;

const api = serveTestApi((request, url) => {
  if (hold) return hold;
  if (url.pathname === '/api/v1/admin/outbox') {
    const status = url.searchParams.get('status');
    const matching = messages.filter((m) => !status || m.status === status);
    const { rows, ...rest } = pageOf(matching, {
      page: Number(url.searchParams.get('page')),
      limit: Number(url.searchParams.get('limit')),
    });
    return ok({ messages: rows, ...rest, delivers });
  }
  const resend = /^\/api\/v1\/admin\/outbox\/([^/]+)\/resend$/.exec(url.pathname);
  const message = messages.find((m) => url.pathname.includes(m._id));
  if (resend && message && request.method === 'POST') {
    messages = messages.map((m) => (m === message ? { ...m, attempts: 0, lastError: null } : m));
    return ok({ ...message, attempts: 0, text: null }, 'The message will be sent again within a minute');
  }
  if (message) return ok({ ...message, text: message.holdsSecret ? null : `Text of ${message.subject}` });
  return failure(404, 'Not found');
});

signedInForEachTest(['logs.view']);

beforeEach(() => {
  hold = null;
  delivers = true;
  messages = [
    buildMessage(1, { subject: 'Alarm digest' }),
    buildMessage(2, {
      subject: 'Your payment link',
      status: 'failed',
      attempts: 5,
      lastError: 'connect ECONNREFUSED',
      sentAt: null,
      holdsSecret: true,
    }),
  ];
});

const open = (at = '/admin/outbox') => renderPage({ path: '/admin/outbox', Component: OutboxPage, at });

describe('Outbox', () => {
  it('lists every message with recipient, subject, status, tries and last error', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Outbox' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Messages' });
    const row = (await within(table).findByText('Your payment link')).closest('tr')!;
    expect(within(row).getByText('clinic2@example.com')).toBeTruthy();
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('5')).toBeTruthy();
    expect(within(row).getByText('connect ECONNREFUSED')).toBeTruthy();
    const sent = within(table).getByText('Alarm digest').closest('tr')!;
    expect(within(sent).getByText('Sent')).toBeTruthy();
    // Only a failed message can be sent again.
    expect(within(sent).queryByRole('button', { name: /^Send again/ })).toBeNull();
  });

  it('shows a spinner while loading, the empty text without messages, and says when mail is not delivered', async () => {
    const held = heldAnswer();
    hold = held.answer;
    open();
    const table = await screen.findByRole('table', { name: 'Messages' });
    expect(await within(table).findByRole('status')).toBeTruthy();
    messages = [];
    delivers = false;
    hold = null;
    held.release(ok({ messages: [], ...pageOf([]), delivers: false }));
    expect(await within(table).findByText(outboxTexts.empty)).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe(outboxTexts.notDelivered);
  });

  it('filters by status through the URL', async () => {
    const user = userEvent.setup();
    open();
    const table = await screen.findByRole('table', { name: 'Messages' });
    await within(table).findByText('Alarm digest');
    await user.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(within(table).queryByText('Alarm digest')).toBeNull());
    expect(api.requests.at(-1)!.url).toContain('status=failed');
  });

  it('sends a failed message again after a confirmation, and reads the list again', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: /^Send again: the message to clinic2/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Send again' });
    expect(within(dialog).getByText(outboxTexts.resendText('clinic2@example.com'))).toBeTruthy();
    const before = api.requests.length;
    await user.click(within(dialog).getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('The message will be sent again within a minute')).toBeTruthy();
    const posted = api.requests.slice(before).find((r) => r.method === 'POST')!;
    expect(posted.url).toBe(`/api/v1/admin/outbox/${testId(2, 7)}/resend`);
    await waitFor(() =>
      expect(api.requests.slice(before).some((r) => r.url.startsWith('/api/v1/admin/outbox?'))).toBe(true),
    );
  });

  it("shows a plain message's text, and for one with a code or a link says why it is not shown", async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByRole('button', { name: /^View the message to clinic1/ }));
    const plain = await screen.findByRole('dialog', { name: 'Alarm digest' });
    expect(await within(plain).findByText('Text of Alarm digest')).toBeTruthy();
    await user.click(within(plain).getAllByRole('button', { name: 'Close' })[0]!);
    await user.click(screen.getByRole('button', { name: /^View the message to clinic2/ }));
    const secret = await screen.findByRole('dialog', { name: 'Your payment link' });
    expect(within(secret).getByText(outboxTexts.secretBody)).toBeTruthy();
    expect(api.requests.some((r) => r.url === `/api/v1/admin/outbox/${testId(2, 7)}`)).toBe(false);
  });
});
