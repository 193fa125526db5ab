import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { demoPayBodySchema, demoPayResponseSchema } from '@app/contract/demo-card';
import { envelope } from '@app/contract/envelope';
import { apiPaths } from '@app/contract/paths';
import {
  checkoutBodySchema,
  checkoutMessages,
  checkoutResponseSchema,
  checkoutSummaryResponseSchema,
  createSubscriptionSchema,
  reconcileBodySchema,
  reconcileResponseSchema,
  subscriptionIdParam,
  subscriptionExportQuery,
  subscriptionListQuery,
  subscriptionListResponseSchema,
  subscriptionMessages,
  subscriptionResponseSchema,
} from '@app/contract/subscriptions';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import type { SubscriptionsService } from './subscriptions-service.ts';

const webhookResponseSchema = envelope(z.object({ received: z.boolean(), duplicate: z.boolean() }));

export const subscriptionsRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService }> = async (
  app,
  { subscriptions },
) => {
  app.get(
    apiPaths.subscriptionsAll,
    {
      config: { access: 'admin', permission: 'subscriptions.view' },
      schema: {
        tags: ['subscriptions'],
        summary: 'Subscriptions, newest first',
        querystring: subscriptionListQuery,
        response: { 200: subscriptionListResponseSchema },
      },
    },
    async (request) => ok(await subscriptions.list(request.query)),
  );

  csvExportRoute(app, {
    path: apiPaths.subscriptionExport,
    permission: 'subscriptions.view',
    tag: 'subscriptions',
    summary:
      "Subscription Management as a CSV file: the list's filters (status, expiresWithin), every matching row, streamed",
    query: subscriptionExportQuery,
    list: 'subscriptions',
    csv: (query, counted) => subscriptions.exportCsv(query, counted),
  });

  app.post(
    apiPaths.subscriptionAdd,
    {
      config: { access: 'admin', permission: 'subscriptions.manage' },
      schema: {
        tags: ['subscriptions'],
        summary: 'Create a subscription and email its payment link',
        body: createSubscriptionSchema,
        response: { 201: subscriptionResponseSchema },
      },
    },
    async (request, reply) => {
      const created = await subscriptions.create(request.body, historyActorOf(request));
      return reply.code(201).send(ok(created, subscriptionMessages.created, 201));
    },
  );

  // ---- public: the customer's checkout, reached through the emailed link with no sign-in

  app.get(
    apiPaths.subscriptionDetail(':id'),
    {
      config: { access: 'public' },
      schema: {
        tags: ['checkout'],
        summary: 'Checkout summary by link id (public; only what the page shows)',
        security: [],
        params: subscriptionIdParam,
        response: { 200: checkoutSummaryResponseSchema },
      },
    },
    async (request) => ok(await subscriptions.summary(request.params.id)),
  );

  app.post(
    apiPaths.checkout,
    {
      config: { access: 'public' },
      schema: {
        tags: ['checkout'],
        summary: 'Create (or resume) the payment intent of a subscription (public)',
        security: [],
        body: checkoutBodySchema,
        response: { 200: checkoutResponseSchema },
      },
    },
    async (request) => ok(await subscriptions.checkout(request.body.subcriptionId)),
  );

  app.post(
    apiPaths.subscriptionDemoPay,
    {
      // In the audit trail as payment.demo.success / .failure: a demo payment never reads as a real one.
      config: { access: 'public', securityEvent: 'payment.demo' },
      schema: {
        tags: ['checkout'],
        summary: 'Pay with the built-in demo provider (Stripe test card numbers; nothing is stored)',
        security: [],
        body: demoPayBodySchema,
        response: { 200: demoPayResponseSchema },
      },
    },
    async (request) => ok(await subscriptions.demoPay(request.body), checkoutMessages.paid200),
  );

  app.post(
    apiPaths.subscriptionReconcile,
    {
      config: { access: 'public' },
      schema: {
        tags: ['checkout'],
        summary: "Ask the payment provider for the payment's state (public)",
        security: [],
        body: reconcileBodySchema,
        response: { 200: reconcileResponseSchema },
      },
    },
    async (request) => ok(await subscriptions.reconcile(request.body.subcriptionId)),
  );

  // Stripe signs the exact bytes it sent, so this one route keeps the raw body.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    raw.post(
      apiPaths.subscriptionWebhook,
      {
        config: { access: 'public' },
        schema: {
          tags: ['checkout'],
          summary: 'Stripe webhook (signature verified, each event applied once)',
          security: [],
          response: { 200: webhookResponseSchema },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return ok(
          await subscriptions.handleWebhook(body, typeof signature === 'string' ? signature : undefined),
        );
      },
    );
  });
};
