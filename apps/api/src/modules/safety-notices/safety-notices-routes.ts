import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  noticeExportQuerySchema,
  noticeMachinesQuerySchema,
  noticeMachinesResponseSchema,
  noticePreviewResponseSchema,
  safetyNoticeBodySchema,
  safetyNoticeIdParamSchema,
  safetyNoticeListQuerySchema,
  safetyNoticeListResponseSchema,
  safetyNoticeMessages,
  safetyNoticeResponseSchema,
  sendSafetyNoticeBodySchema,
  type NoticeMachine,
} from '@app/contract/safety-notices';
import { noticeExportHeaders, safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { csvLine } from '#api/lib/csv.ts';
import { sendCsvExport } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { chosenColumns, type Cell } from '#api/lib/export-columns.ts';
import { actorOf } from '#api/lib/request-context.ts';
import { signerOf, type SignatureService } from '../signatures/signature-service.ts';
import type { SafetyNoticesService } from './safety-notices-service.ts';

const tags = ['safety-notices'];
const permission = 'safety-notices.manage';

type ExportRow = NoticeMachine & { reference: string };
const cells: Record<keyof typeof noticeExportHeaders, (row: ExportRow) => Cell> = {
  reference: (r) => r.reference,
  serialNumber: (r) => r.serialNumber,
  machineNumber: (r) => r.machineNumber,
  appVersion: (r) =>
    r.appVersionCode === null ? null : `${r.appVersionName ?? ''} (${r.appVersionCode})`.trim(),
  contact: (r) => r.contact ?? 'no contact',
  notifiedAt: (r) => r.notifiedAt,
  acknowledgedAt: (r) => r.acknowledgedAt,
  acknowledgedBy: (r) => r.acknowledgedBy,
  remediedAt: (r) => r.remediedAt,
};

/*
 * Field safety notices in the console (decision 084), all under safety-notices.manage. Sending is
 * signed (issue 38 item 2, decision 083): the signature, checked in the sending's transaction, is
 * its step-up.
 */
export const safetyNoticesRoutes: FastifyPluginAsyncZod<{
  notices: SafetyNoticesService;
  signatures: SignatureService;
}> = async (app, { notices, signatures }) => {
  app.get(
    safetyNoticePaths.list,
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: 'Field safety notices, newest first',
        querystring: safetyNoticeListQuerySchema,
        response: { 200: safetyNoticeListResponseSchema },
      },
    },
    async function listSafetyNotices(request) {
      return ok(await notices.list(request.query.page, request.query.limit));
    },
  );

  app.post(
    safetyNoticePaths.list,
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: 'Draft a notice: its texts, the selection of machines and the remedy (400 naming the field)',
        body: safetyNoticeBodySchema,
        response: { 201: safetyNoticeResponseSchema },
      },
    },
    async function createSafetyNotice(request, reply) {
      const notice = await notices.create(actorOf(request), request.body);
      reply.code(201);
      return ok(notice, safetyNoticeMessages.saved);
    },
  );

  app.get(
    safetyNoticePaths.notice(':id'),
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: 'One notice, with its counts once sent',
        params: safetyNoticeIdParamSchema,
        response: { 200: safetyNoticeResponseSchema },
      },
    },
    async function getSafetyNotice(request) {
      return ok(await notices.get(request.params.id));
    },
  );

  app.put(
    safetyNoticePaths.notice(':id'),
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: 'Change a draft (409 once it has been sent)',
        params: safetyNoticeIdParamSchema,
        body: safetyNoticeBodySchema,
        response: { 200: safetyNoticeResponseSchema },
      },
    },
    async function updateSafetyNotice(request) {
      return ok(await notices.update(request.params.id, request.body), safetyNoticeMessages.saved);
    },
  );

  app.get(
    safetyNoticePaths.preview(':id'),
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: 'The machines the selection matches now, with their contacts (paged)',
        params: safetyNoticeIdParamSchema,
        querystring: safetyNoticeListQuerySchema,
        response: { 200: noticePreviewResponseSchema },
      },
    },
    async function previewSafetyNotice(request) {
      return ok(await notices.preview(request.params.id, request.query.page, request.query.limit));
    },
  );

  app.post(
    safetyNoticePaths.send(':id'),
    {
      config: { access: 'admin', permission, stepUp: 'signature' },
      schema: {
        tags,
        summary:
          'Send a draft, signed: the affected machines frozen (serial, app version), each clinic contact mailed an acknowledgement link',
        params: safetyNoticeIdParamSchema,
        body: sendSafetyNoticeBodySchema,
        response: { 200: safetyNoticeResponseSchema },
      },
    },
    async function sendSafetyNotice(request) {
      const signer = signerOf(request);
      const { id } = request.params;
      const notice = await notices.send(actorOf(request), id, (tx, content) =>
        signatures.sign(tx, signer, {
          recordType: 'field-safety-notice',
          recordId: id,
          content,
          input: request.body.signature,
        }),
      );
      return ok(notice, safetyNoticeMessages.sent(notice.counts?.contacts ?? 0));
    },
  );

  app.get(
    safetyNoticePaths.machines(':id'),
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: 'A sent notice per machine: notified, acknowledged, remedied; with the counts',
        params: safetyNoticeIdParamSchema,
        querystring: noticeMachinesQuerySchema,
        response: { 200: noticeMachinesResponseSchema },
      },
    },
    async function safetyNoticeMachines(request) {
      return ok(await notices.machines(request.params.id, request.query));
    },
  );

  app.get(
    safetyNoticePaths.export(':id'),
    {
      config: { access: 'admin', permission },
      schema: {
        tags,
        summary: "The regulator's CSV of a sent notice: one row per machine",
        params: safetyNoticeIdParamSchema,
        querystring: noticeExportQuerySchema,
      },
    },
    async function exportSafetyNotice(request, reply) {
      const { reference, chunks } = await notices.exportOf(request.params.id, request.query.status);
      const columns = chosenColumns(noticeExportHeaders, cells, request.query.columns);
      return sendCsvExport(request, reply, {
        list: 'safety-notice',
        async *csv(counted) {
          yield csvLine(columns.map((c) => c.header));
          let rows = 0;
          for await (const chunk of chunks) {
            rows += chunk.length;
            yield chunk.map((m) => csvLine(columns.map((c) => c.cell({ ...m, reference })))).join('');
            counted(rows);
          }
        },
      });
    },
  );
};
