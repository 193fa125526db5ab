import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancelBodySchema,
  demoCardUpdateBodySchema,
  demoCardUpdateResponseSchema,
  extendBodySchema,
  graceBodySchema,
  paymentIdParam,
  receiptResponseSchema,
  revokeBodySchema,
  subscriptionDetailResponseSchema,
  subscriptionOperationMessages as messages,
  subscriptionOperationPaths as paths,
} from '@app/contract/subscription-operations';
import { subscriptionIdParam } from '@app/contract/subscriptions';
import { ok } from '#api/lib/envelope.ts';
import { escapeHtml } from '#api/lib/mailer.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import type { SubscriptionOperations } from './subscription-operations.ts';
import type { SubscriptionPage } from './subscription-page.ts';
import type { SubscriptionExtension } from './subscription-extension.ts';
import { signerOf } from '../signatures/signature-service.ts';

const tags = ['subscriptions'];

/*
 * The subscription page and its operations (issue 34 item 5). Reading needs subscriptions.view; the
 * link and plan operations subscriptions.manage; extending the paid-through date (signed, decision 083) and granting grace
 * give a machine time without payment, so they need licences.manage, and extending a fresh step-up.
 * Each answers the page's data afresh, with what it did in `msg`.
 */
export const subscriptionOperationsRoutes: FastifyPluginAsyncZod<{
  operations: SubscriptionOperations & SubscriptionPage & SubscriptionExtension;
}> = async (app, { operations }) => {
  const detail = async (id: string, message: string) => ok(await operations.detail(id), message);

  app.get(
    paths.detail(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.view' },
      schema: {
        tags,
        summary: "A subscription's page: details, the machine, payments with receipts, the timeline",
        params: subscriptionIdParam,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => ok(await operations.detail(request.params.id)),
  );

  app.post(
    paths.resend(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags,
        summary: 'Mail the payment link again (an unpaid link; it gets LINK_DAYS more)',
        params: subscriptionIdParam,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.resend(request.params.id, historyActorOf(request));
      return detail(request.params.id, messages.resent);
    },
  );

  app.post(
    paths.revoke(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags,
        summary: 'Revoke an unpaid link: it can no longer be paid',
        params: subscriptionIdParam,
        body: revokeBodySchema.nullish(),
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.revoke(request.params.id, request.body?.reason, historyActorOf(request));
      return detail(request.params.id, messages.revokedDone);
    },
  );

  app.post(
    paths.extend(':id'),
    {
      // Signed with the password (and code), which stands for the step-up (decision 083).
      config: { access: 'admin', permission: 'licences.manage', stepUp: 'signature' },
      schema: {
        tags,
        summary:
          'Extend the paid-through date to the end of a later day, with a reason, signed (signature: meaning, password, and code with two-step sign-in; a wrong one is a 400 naming signature.password or signature.code)',
        params: subscriptionIdParam,
        body: extendBodySchema,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.extend(request.params.id, request.body, historyActorOf(request), signerOf(request));
      return detail(request.params.id, messages.extended);
    },
  );

  app.post(
    paths.grace(':id'),
    {
      config: { access: 'admin', permission: 'licences.manage' },
      schema: {
        tags,
        summary: "Grant grace until the end of a day, with a reason; a recurring plan's collection pauses",
        params: subscriptionIdParam,
        body: graceBodySchema,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.grace(request.params.id, request.body, historyActorOf(request));
      return detail(request.params.id, messages.graceGranted);
    },
  );

  app.post(
    paths.resume(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags,
        summary: "Resume a paused recurring plan's collection",
        params: subscriptionIdParam,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.resume(request.params.id, historyActorOf(request));
      return detail(request.params.id, messages.resumed);
    },
  );

  app.post(
    paths.cancel(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags,
        summary: 'Cancel a recurring plan at the end of its paid period, or now',
        params: subscriptionIdParam,
        body: cancelBodySchema,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.cancel(request.params.id, request.body, historyActorOf(request));
      return detail(
        request.params.id,
        request.body.when === 'now' ? messages.cancelledNow : messages.cancelledAtPeriodEnd,
      );
    },
  );

  app.post(
    paths.retry(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags,
        summary: "Retry a recurring plan's failed payment now (Stripe: pay its open invoice)",
        params: subscriptionIdParam,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      const outcome = await operations.retry(request.params.id, historyActorOf(request));
      return detail(
        request.params.id,
        outcome.paid ? messages.retried : messages.retryFailed(outcome.message ?? 'Payment failed'),
      );
    },
  );

  app.post(
    paths.cardUpdate(':id'),
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags,
        summary: 'Mail the customer a link to change the card (Stripe Billing Portal, or the demo page)',
        params: subscriptionIdParam,
        response: { 200: subscriptionDetailResponseSchema },
      },
    },
    async (request) => {
      await operations.sendCardUpdate(request.params.id, historyActorOf(request));
      return detail(request.params.id, messages.cardUpdateSent);
    },
  );

  app.get(
    paths.receipt(':id', ':paymentId'),
    {
      config: { access: 'admin', permission: 'subscriptions.view' },
      schema: {
        tags,
        summary: "One payment's receipt: Stripe's hosted receipt or invoice page, or the demo's own",
        params: paymentIdParam,
        response: { 200: receiptResponseSchema },
      },
    },
    async (request) => ok({ url: await operations.receipt(request.params.id, request.params.paymentId) }),
  );

  // ---- public: the demo provider's receipt page and card-update form

  app.get(
    paths.demoReceipt(':paymentId'),
    {
      config: { access: 'public' },
      schema: {
        tags: ['checkout'],
        summary: "The demo provider's receipt of one payment, as a page (public, at its unguessable id)",
        security: [],
        params: z.object({ paymentId: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const found = await operations.demoReceipt(request.params.paymentId);
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      if (!found) return reply.code(404).type('text/html; charset=utf-8').send(receiptPage(null));
      return reply.type('text/html; charset=utf-8').send(receiptPage(found));
    },
  );

  app.post(
    paths.demoCardUpdate,
    {
      config: { access: 'public', securityEvent: 'payment.demo' },
      schema: {
        tags: ['checkout'],
        summary:
          "Give a demo plan's new card on file (Stripe test card numbers; only the last four digits kept)",
        security: [],
        body: demoCardUpdateBodySchema,
        response: { 200: demoCardUpdateResponseSchema },
      },
    },
    async (request) => ok(await operations.demoCardUpdate(request.body), messages.cardUpdated),
  );
};

type ReceiptFacts = NonNullable<Awaited<ReturnType<SubscriptionPage['demoReceipt']>>>;

/** The demo's receipt, a small page of its own (no script, readable without the console). */
function receiptPage(found: ReceiptFacts | null): string {
  const head = (title: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}` +
    `dt{font-weight:600;margin-top:.75rem}dd{margin:0}.note{margin-top:1.5rem;color:#444}</style></head><body><main>`;
  if (!found) return `${head('Receipt not found')}<h1>Receipt not found</h1></main></body></html>`;
  const { payment, subscription } = found;
  const row = (label: string, value: string) => `<dt>${label}</dt><dd>${escapeHtml(value)}</dd>`;
  return (
    `${head('Receipt')}<h1>Receipt</h1><dl>` +
    row('Receipt number', payment.id.slice(0, 12).toUpperCase()) +
    row('Paid on', payment.paidAt.toUTCString()) +
    row('Amount', `$${(payment.amountCents / 100).toFixed(2)} USD`) +
    row('Customer', `${subscription.fullName} (${subscription.email})`) +
    row('Machine', subscription.machineSerialNumber) +
    (payment.periodEnd ? row('Paid through', payment.periodEnd.toUTCString()) : '') +
    `</dl><p class="note">Demo payment: made with the built-in demo provider, no money moved.</p></main></body></html>`
  );
}
