import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiBaseUrl } from '#web/lib/api-client.ts';
import { startTestServer, type Answer, type Recorded } from '#web/test/http-server.ts';
import { checkoutNavigation } from '../checkout-paths.ts';
import { showPaymentOutcome } from './payment-outcome-page.ts';
import { PlansPage } from './plans-page.tsx';

const id = 'Lnk_0123456789abcdefghijkl';
const summary = {
  _id: id,
  fullName: 'Ada Lovelace',
  isRecurring: true,
  planType: 'month',
  email: 'ada@example.com',
  machineSerialNumber: 'SN-0001',
  amount: 49.99,
  createdAt: '2025-03-04T10:00:00.000Z',
  status: 1,
};

let answer: (request: Recorded) => Answer | undefined = () => undefined;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer(
    (request) =>
      answer(request) ?? {
        status: 404,
        body: { code: 404, msg: 'This payment link is not valid.', data: null },
      },
  );
  setApiBaseUrl(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  vi.spyOn(console, 'error').mockImplementation(() => {});
  answer = (request) => {
    if (request.url === `/api/v1/admin/subscrption/detail/${id}`)
      return { status: 200, body: { code: 200, msg: 'Success', data: summary } };
    if (request.url === '/api/v1/admin/subscription/checkout')
      return {
        status: 200,
        body: { code: 200, msg: 'Success', data: { clientSecret: 'demo_pi_x_secret_y', provider: 'demo' } },
      };
    if (request.url === '/api/v1/admin/subscription/reconcile')
      return { status: 200, body: { code: 200, msg: 'Success', data: { ...summary, status: 2 } } };
    if (request.url === '/api/v1/admin/subscription/demo-pay') {
      const card = (JSON.parse(request.body) as { cardNumber: string }).cardNumber;
      return card === '4242424242424242'
        ? { status: 200, body: { code: 200, msg: 'Payment succeeded', data: { status: 'succeeded' } } }
        : { status: 402, body: { code: 402, msg: 'Your card was declined.', data: null } };
    }
    return undefined;
  };
});

let go: ReturnType<typeof vi.fn<(path: string) => void>>;
beforeEach(() => {
  // Leaving for /success or /cancel is a page load; here it is only recorded.
  go = vi.fn<(path: string) => void>();
  vi.spyOn(checkoutNavigation, 'go').mockImplementation(go);
});

afterEach(() => {
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
});

const renderPlans = (planId: string | undefined) => render(<PlansPage id={planId} />);

/** /success or /cancel as the entry shows them: into an empty page, with the URL's query. */
function showOutcome(outcome: 'success' | 'cancel', search = '') {
  const container = document.createElement('div');
  document.body.append(container);
  window.history.replaceState(null, '', `/${outcome}${search}`);
  showPaymentOutcome(container, outcome);
  return container;
}

const posted = (path: string) =>
  server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('/plans/:id', () => {
  it('greets the customer and shows the plan, email, serial number, amount and start date', async () => {
    renderPlans(id);
    expect(await screen.findByRole('heading', { name: 'Hello, Ada Lovelace' })).toBeTruthy();
    expect(screen.getByText('Monthly')).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    expect(screen.getByText('SN-0001')).toBeTruthy();
    expect(screen.getByText('$49.99')).toBeTruthy();
    expect(screen.getByText('04-03-2025')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeTruthy();
  });

  it('opens the payment step with a payment intent for this link, and Back to Plans returns', async () => {
    renderPlans(id);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByLabelText('Card number')).toBeTruthy();
    expect(screen.getByLabelText('Expiry (MM/YY)')).toBeTruthy();
    expect(screen.getByLabelText('CVC')).toBeTruthy();
    expect(screen.getByText(/Secure payment powered by/)).toBeTruthy();
    expect(posted('/api/v1/admin/subscription/checkout')).toEqual([{ subcriptionId: id }]);
    await userEvent.click(screen.getByRole('button', { name: 'Back to Plans' }));
    expect(await screen.findByRole('button', { name: 'Subscribe' })).toBeTruthy();
  });

  it('checks the card in the browser before sending it', async () => {
    renderPlans(id);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Pay Now' }));
    expect(await screen.findByText('Card number is required')).toBeTruthy();
    expect(screen.getByText('Expiry date is required')).toBeTruthy();
    expect(screen.getByText('CVC is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Card number'), '4242 4242 4242 4241');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '01/20');
    await userEvent.type(screen.getByLabelText('CVC'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    expect(await screen.findByText('Your card number is invalid.')).toBeTruthy();
    expect(screen.getByText("Your card's expiry date is in the past.")).toBeTruthy();
    expect(screen.getByText('CVC must be 3 or 4 digits')).toBeTruthy();
    expect(posted('/api/v1/admin/subscription/demo-pay')).toHaveLength(0);
  });

  it('pays with 4242 4242 4242 4242 and goes to /success for this link', async () => {
    renderPlans(id);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    await userEvent.type(await screen.findByLabelText('Card number'), '4242 4242 4242 4242');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '12/40');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(`/success?subscription=${id}`));
    expect(posted('/api/v1/admin/subscription/demo-pay')).toEqual([
      {
        subcriptionId: id,
        clientSecret: 'demo_pi_x_secret_y',
        cardNumber: '4242424242424242',
        expiry: '12/40',
        cvc: '123',
      },
    ]);
  });

  it('logs a declined payment and goes to /cancel', async () => {
    renderPlans(id);
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    await userEvent.type(await screen.findByLabelText('Card number'), '4000 0000 0000 0002');
    await userEvent.type(screen.getByLabelText('Expiry (MM/YY)'), '12/40');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Pay Now' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/cancel'));
    expect(console.error).toHaveBeenCalledWith('Your card was declined.');
  });

  it('offers no Subscribe button for a paid link, an expired one or an unknown one', async () => {
    answer = (request) =>
      request.url.endsWith(id)
        ? { status: 200, body: { code: 200, msg: 'Success', data: { ...summary, status: 2 } } }
        : undefined;
    renderPlans(id);
    expect(await screen.findByText('This subscription has already been paid.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
  });

  it('says an expired link has expired', async () => {
    answer = (request) =>
      request.url.endsWith(id)
        ? {
            status: 200,
            body: {
              code: 200,
              msg: 'Success',
              data: { ...summary, status: 3, isRecurring: false, planType: null },
            },
          }
        : undefined;
    renderPlans(id);
    expect(await screen.findByText('This payment link has expired. Please ask for a new one.')).toBeTruthy();
    expect(screen.getByText('One Time')).toBeTruthy();
  });

  it('says an unknown link is not valid', async () => {
    renderPlans('nope');
    expect(await screen.findByText('This payment link is not valid.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
  });
});

describe('/success and /cancel', () => {
  it('thanks the customer, asks the server to reconcile and opens the public website on Go Back', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const page = within(showOutcome('success', `?subscription=${id}`));
    expect(page.getByRole('heading', { level: 1, name: 'Payment Successful!' })).toBeTruthy();
    expect(page.getByText(/Thank you for subscribing to our premium plan/)).toBeTruthy();
    expect(document.title).toBe('Payment Success | ADMIN');
    await waitFor(() =>
      expect(posted('/api/v1/admin/subscription/reconcile')).toEqual([{ subcriptionId: id }]),
    );
    await userEvent.click(page.getByRole('button', { name: 'Go Back' }));
    expect(open).toHaveBeenCalledWith(window.location.origin, '_blank', 'noopener,noreferrer');
  });

  it('asks nothing of the server without a subscription in the URL', async () => {
    const page = within(showOutcome('success'));
    expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(0);
  });

  it('shows a failed redirect as /cancel, in place of /success in the history', () => {
    const length = window.history.length;
    const page = within(showOutcome('success', '?subscription=x&redirect_status=failed'));
    expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeTruthy();
    expect(window.location.pathname).toBe('/cancel');
    expect(window.history.length).toBe(length);
    expect(server.requests).toHaveLength(0);
  });

  it('says the payment was cancelled and links back to the subscriptions', () => {
    const page = within(showOutcome('cancel'));
    expect(page.getByRole('heading', { level: 1, name: 'Payment Cancelled' })).toBeTruthy();
    expect(page.getByText('Your payment was cancelled. You can try again.')).toBeTruthy();
    expect(page.getByRole('link', { name: 'Back to Subscriptions' }).getAttribute('href')).toBe(
      '/admin/subscription-management',
    );
    expect(page.getByRole('main')).toBeTruthy();
    expect(document.title).toBe('Payment Cancelled | ADMIN');
  });
});
