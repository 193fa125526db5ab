import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicActivityQuerySchema,
  clinicActivityResponseSchema,
  clinicMachineListQuerySchema,
  clinicMachineListResponseSchema,
  clinicPaymentParamSchema,
  clinicSubscriptionParamSchema,
  clinicSubscriptionsResponseSchema,
  cardUpdateResponseSchema,
  demoCardResponseSchema,
  figuresExportQuerySchema,
  figuresQuerySchema,
  figuresResponseSchema,
  retryResponseSchema,
  urlResponseSchema,
  usageQuerySchema,
  usageReportResponseSchema,
} from '@app/contract/clinic-portal';
import { clinicPortalApiPaths as paths, clinicPortalMessages as m } from '@app/contract/clinic-portal-texts';
import { demoCardFormSchema } from '@app/contract/demo-card';
import { sendCsvExport } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { requireClinicUser } from '#api/lib/request-context.ts';
import type { ActivityService } from './activity-service.ts';
import type { BillingService } from './billing-service.ts';
import type { FiguresService } from './figures-service.ts';
import type { MachinesService } from './machines-service.ts';
import { figuresCsv, figuresRows, usageCsv } from './portal-csv.ts';

const tags = ['clinic portal'];

/*
 * The clinic portal's pages (issue 39 item 5), access 'clinic': every handler takes the customer from
 * the signed-in user's session (requireClinicUser), never from the request, and its services read in
 * that customer's row-level-security scope (decision 090). Each request's audit row carries the
 * customer (decision 088); the CSV files are audited before their first byte (decision 064).
 */
export const clinicPortalRoutes: FastifyPluginAsyncZod<{
  machines: MachinesService;
  figures: FiguresService;
  billing: BillingService;
  activity: ActivityService;
}> = async (app, { machines, figures, billing, activity }) => {
  const customerOf = (request: Parameters<typeof requireClinicUser>[0]) =>
    requireClinicUser(request).customerId;

  app.get(
    paths.machines,
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: "The clinic's machines now: status, last seen, licence (search, sort, page)",
        querystring: clinicMachineListQuerySchema,
        response: { 200: clinicMachineListResponseSchema },
      },
    },
    async (request) => ok(await machines.list(customerOf(request), request.query)),
  );

  app.get(
    paths.figures,
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary:
          "The clinic's treatments (count and minutes) per machine, doctor, week and month over a range of its days",
        querystring: figuresQuerySchema,
        response: { 200: figuresResponseSchema },
      },
    },
    async (request) => ok(await figures.figures(customerOf(request), request.query, request.timeZone)),
  );

  app.get(
    paths.figuresExport,
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: "The clinic's treatment figures of one grouping (by) as a CSV file",
        querystring: figuresExportQuerySchema,
      },
    },
    async (request, reply) => {
      const { by } = request.query;
      // Read (and a bad range refused) before the export's first audit row and byte.
      const read = await figures.figures(customerOf(request), request.query, request.timeZone);
      return sendCsvExport(request, reply, {
        list: `treatment-figures-by-${by}`,
        csv: (counted) => counting(figuresCsv(read, by), () => counted(figuresRows(read, by))),
      });
    },
  );

  app.get(
    paths.usage,
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: "A month's usage per machine of the clinic: treatments, minutes, days used",
        querystring: usageQuerySchema,
        response: { 200: usageReportResponseSchema },
      },
    },
    async (request) => ok(await figures.usage(customerOf(request), request.query, request.timeZone)),
  );

  app.get(
    paths.usageExport,
    {
      config: { access: 'clinic' },
      schema: { tags, summary: "A month's usage per machine as a CSV file", querystring: usageQuerySchema },
    },
    async (request, reply) => {
      const report = await figures.usage(customerOf(request), request.query, request.timeZone);
      return sendCsvExport(request, reply, {
        list: `usage-${report.month}`,
        csv: (counted) => counting(usageCsv(report), () => counted(report.machines.length)),
      });
    },
  );

  app.get(
    paths.subscriptions,
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: "The clinic's subscriptions: status, what it may do (pay, retry, card), payments",
        response: { 200: clinicSubscriptionsResponseSchema },
      },
    },
    async (request) => ok(await billing.list(customerOf(request))),
  );

  app.get(
    paths.receipt(':id', ':paymentId'),
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: "One of the clinic's payments' receipt: Stripe's hosted page or the demo's own",
        params: clinicPaymentParamSchema,
        response: { 200: urlResponseSchema },
      },
    },
    async (request) =>
      ok({ url: await billing.receipt(customerOf(request), request.params.id, request.params.paymentId) }),
  );

  app.post(
    paths.retry(':id'),
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary: "Pay the clinic's plan's failed renewal now with the card on file",
        params: clinicSubscriptionParamSchema,
        response: { 200: retryResponseSchema },
      },
    },
    async (request) => {
      const outcome = await billing.retry(customerOf(request), request.params.id, historyActorOf(request));
      request.auditRecord = { kind: 'subscription', id: request.params.id };
      return ok(
        { paid: outcome.paid },
        outcome.paid ? m.retried : m.retryFailed(outcome.message ?? 'Payment failed'),
      );
    },
  );

  app.post(
    paths.cardUpdate(':id'),
    {
      config: { access: 'clinic' },
      schema: {
        tags,
        summary:
          "The page where the clinic changes its plan's card: a Stripe Billing Portal session, or null with the demo provider (its card goes to demo-card)",
        params: clinicSubscriptionParamSchema,
        response: { 200: cardUpdateResponseSchema },
      },
    },
    async (request) => {
      const url = await billing.cardUpdateUrl(customerOf(request), request.params.id);
      request.auditRecord = { kind: 'subscription', id: request.params.id };
      return ok({ url }, url ? m.cardUpdateOpened : m.cardUpdateDemo);
    },
  );

  app.post(
    paths.demoCard(':id'),
    {
      config: { access: 'clinic', securityEvent: 'payment.demo' },
      schema: {
        tags,
        summary:
          "The demo provider's new card for the clinic's plan (Stripe test card numbers; only the last four digits kept)",
        params: clinicSubscriptionParamSchema,
        body: demoCardFormSchema,
        response: { 200: demoCardResponseSchema },
      },
    },
    async (request) => {
      const { cardNumber, expiry } = request.body;
      const done = await billing.demoCard(customerOf(request), request.params.id, { cardNumber, expiry });
      request.auditRecord = { kind: 'subscription', id: request.params.id };
      return ok(done, m.cardUpdated);
    },
  );

  app.get(
    paths.activity,
    {
      config: { access: 'clinic', clinicManager: true },
      schema: {
        tags,
        summary:
          "The manager's clinic's activity: the audit trail's rows about it, newest first (the supplier's staff named as the supplier)",
        querystring: clinicActivityQuerySchema,
        response: { 200: clinicActivityResponseSchema },
      },
    },
    async (request) => ok(await activity.list(customerOf(request), request.query)),
  );
};

/** Hands the file's lines on, and tells the audit how many rows it held once they are all out. */
async function* counting(lines: Iterable<string>, done: () => void): AsyncGenerator<string> {
  for (const line of lines) yield line;
  done();
}
