import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  erasureDecisionBodySchema,
  erasureIdParamSchema,
  erasureListQuerySchema,
  erasureListResponseSchema,
  erasureMessages,
  erasureRequestBodySchema,
  erasureRequestResponseSchema,
} from '@app/contract/erasure';
import { erasurePaths } from '@app/contract/erasure-texts';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import { signerOf } from '../signatures/signature-service.ts';
import type { ErasureService } from './erasure-service.ts';

const tags = ['erasure'];
const decidedMessage = {
  erase: erasureMessages.erased,
  'erase-in-part': erasureMessages.erasedInPart,
  refuse: erasureMessages.refused,
} as const;

/*
 * Erasure requests (decision 085), all under erasure.manage. Recording one is a note that a patient
 * asked; the decision is signed (the signature stands for its step-up, decision 083) and carried out
 * in its transaction.
 */
export const erasureRoutes: FastifyPluginAsyncZod<{ erasure: ErasureService }> = async (app, { erasure }) => {
  app.get(
    erasurePaths.list,
    {
      config: { access: 'admin', permission: 'erasure.manage' },
      schema: {
        tags,
        summary: 'Erasure requests in one state (open: awaiting a decision), newest first',
        querystring: erasureListQuerySchema,
        response: { 200: erasureListResponseSchema },
      },
    },
    async function listErasureRequests(request) {
      return ok(await erasure.list(request.query));
    },
  );

  app.post(
    erasurePaths.list,
    {
      config: { access: 'admin', permission: 'erasure.manage' },
      schema: {
        tags,
        summary:
          "Record a patient's erasure request (how and when it arrived, a note); 409 when one awaits a decision or the patient is erased",
        body: erasureRequestBodySchema,
        response: { 201: erasureRequestResponseSchema },
      },
    },
    async function recordErasureRequest(request, reply) {
      const created = await erasure.record(historyActorOf(request), request.body);
      reply.code(201);
      return ok(created, erasureMessages.recorded);
    },
  );

  app.get(
    erasurePaths.one(':id'),
    {
      config: { access: 'admin', permission: 'erasure.manage' },
      schema: {
        tags,
        summary: 'One erasure request, its decision, what was done and kept, and its signature',
        params: erasureIdParamSchema,
        response: { 200: erasureRequestResponseSchema },
      },
    },
    async function getErasureRequest(request) {
      return ok(await erasure.get(request.params.id));
    },
  );

  app.post(
    erasurePaths.decide(':id'),
    {
      config: { access: 'admin', permission: 'erasure.manage', stepUp: 'signature' },
      schema: {
        tags,
        summary:
          'Decide once, signed (signature: meaning, password, and code with two-step sign-in): erase, erase-in-part (parts, and the legalBasis for what is kept) or refuse (legalBasis). Carried out at once everywhere the patient appears; 409 once decided, or while a legal hold is set',
        params: erasureIdParamSchema,
        body: erasureDecisionBodySchema,
        response: { 200: erasureRequestResponseSchema },
      },
    },
    async function decideErasureRequest(request) {
      // Before anything can fail: the request's audit row says whether the signature held.
      const signer = signerOf(request);
      const decided = await erasure.decide(historyActorOf(request), signer, request.params.id, request.body);
      return ok(decided, decidedMessage[request.body.decision]);
    },
  );
};
