import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditChainPaths, auditChainVerifyResponseSchema } from '@app/contract/audit-chain';
import { ok } from '#api/lib/envelope.ts';
import type { AuditChainService } from './audit-chain-service.ts';

/*
 * Verifying the audit trail's hash chains (decision 080): a read of the Admin Logs' integrity, so it
 * takes what reading them takes (logs.view). It reads every row, so one runs at a time: a second
 * caller gets the running one's answer.
 */
export const auditChainRoutes: FastifyPluginAsyncZod<{ auditChain: AuditChainService }> = async (
  app,
  { auditChain },
) => {
  app.get(
    auditChainPaths.verify,
    {
      config: { access: 'admin', permission: 'logs.view' },
      schema: {
        tags: ['logs'],
        summary:
          "Verifies the audit logs' hash chains: whether each is whole, the rows checked and the first broken link (altered, missing or unchained)",
        response: { 200: auditChainVerifyResponseSchema },
      },
    },
    async function verifyAuditChain() {
      return ok(await auditChain.verify());
    },
  );
};
