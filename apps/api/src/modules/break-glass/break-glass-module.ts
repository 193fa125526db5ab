import { breakGlassScreenPath } from '@app/contract/break-glass-texts';
import { defineModule } from '#api/app-module.ts';
import { createDeviceUsersService } from '../device-users/device-users-service.ts';
import { breakGlassRoutes } from './break-glass-routes.ts';
import { createBreakGlassService } from './break-glass-service.ts';

/**
 * Break-glass access (issue 38 item 5, decision 082): an admin who cannot reveal declares an
 * emergency to see one patient's data for BREAK_GLASS_MINUTES; the security reviewers are mailed at
 * once and sign each use off. The patient is read as the device-users module reads it.
 */
export const breakGlassModule = defineModule({
  name: 'break-glass',
  register: (app, { db, now, mailer, config }) =>
    app.register(breakGlassRoutes, {
      breakGlass: createBreakGlassService({
        db,
        now,
        mailer,
        windowMinutes: config.breakGlassMinutes,
        reviewUrl: `${config.publicUrl}${breakGlassScreenPath}`,
        getPatient: createDeviceUsersService({ db }).getPatient,
      }),
    }),
});
