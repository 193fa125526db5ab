import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acknowledgeBodySchema,
  acknowledgementResponseSchema,
  acknowledgementTokenParamSchema,
  safetyNoticeMessages,
} from '@app/contract/safety-notices';
import { safetyNoticePaths } from '@app/contract/safety-notices-texts';
import { ok } from '#api/lib/envelope.ts';
import type { NoticeAcknowledgements } from './notice-acknowledgement.ts';

const tags = ['safety-notices'];

/*
 * The clinic's acknowledgement (decision 084): public, as the mailed link is the only key. The token
 * is 256 random bits naming one contact of one notice; it reads that notice and the contact's
 * machines, and records one acknowledgement with the name typed (409 after that).
 */
export const noticeAcknowledgementRoutes: FastifyPluginAsyncZod<{
  acknowledgements: NoticeAcknowledgements;
}> = async (app, { acknowledgements }) => {
  app.get(
    safetyNoticePaths.acknowledgement(':token'),
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A field safety notice as its clinic's link shows it (404 for an unknown token)",
        params: acknowledgementTokenParamSchema,
        response: { 200: acknowledgementResponseSchema },
      },
    },
    async function readAcknowledgement(request) {
      return ok(await acknowledgements.read(request.params.token));
    },
  );

  app.post(
    safetyNoticePaths.acknowledgement(':token'),
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Acknowledge a field safety notice for the link's clinic, with the name of who does (once)",
        params: acknowledgementTokenParamSchema,
        body: acknowledgeBodySchema,
        response: { 200: acknowledgementResponseSchema },
      },
    },
    async function acknowledgeNotice(request) {
      const answer = await acknowledgements.acknowledge(request.params.token, request.body.name);
      return ok(answer, safetyNoticeMessages.acknowledged);
    },
  );
};
