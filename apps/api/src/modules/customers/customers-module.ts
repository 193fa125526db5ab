import { defineModule } from '#api/app-module.ts';
import { assignmentRoutes } from './assignment-routes.ts';
import { createAssignmentsService } from './assignments-service.ts';
import { createBulkAssign } from './bulk-assign.ts';
import { createCustomerPieces } from './customer-pieces.ts';
import { customersRoutes } from './customers-routes.ts';
import { createCustomersService } from './customers-service.ts';

/** Customers (clinics) and who held a machine when (issue 39 items 1-2, decision 087). */
export const customersModule = defineModule({
  name: 'customers',
  register: async (app, { db, now, config }) => {
    const assignments = createAssignmentsService({ db, now });
    const bulkAssign = createBulkAssign({
      db,
      now,
      offlineMinutes: config.deviceOfflineMinutes,
      assignments,
    });
    await app.register(customersRoutes, {
      customers: createCustomersService({ db, now }),
      pieces: createCustomerPieces({ db, now }),
      assignments,
    });
    await app.register(assignmentRoutes, { assignments, bulkAssign });
  },
});
