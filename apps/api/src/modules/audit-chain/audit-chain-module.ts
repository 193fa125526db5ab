import { defineModule } from '#api/app-module.ts';
import { auditChainRoutes } from './audit-chain-routes.ts';
import { createAuditChainService } from './audit-chain-service.ts';

/** The audit trail's hash chains (decision 080): verification on demand, GET /api/v1/admin/audit/verify. */
export const auditChainModule = defineModule({
  name: 'audit-chain',
  register: (app, { database, db, now }) =>
    app.register(auditChainRoutes, {
      // Two of the pool's ten connections on PostgreSQL: the rest keep serving requests meanwhile.
      auditChain: createAuditChainService({ db, now, concurrency: database.kind === 'postgres' ? 2 : 1 }),
    }),
});
