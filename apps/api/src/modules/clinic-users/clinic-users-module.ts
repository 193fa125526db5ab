import { defineModule } from '#api/app-module.ts';
import { adminClinicUsersRoutes } from './admin-clinic-users-routes.ts';
import { clinicRoutes } from './clinic-routes.ts';
import { createClinicUsersService } from './clinic-users-service.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { createInvitationsService } from './invitations-service.ts';

/**
 * Clinic users (issue 39 item 3, decision 088): a customer's own people, invited by mail (by the
 * supplier's admin, then by the clinic's manager), signing in on the console's sign-in page into the
 * clinic portal, whose API is theirs alone (access 'clinic') as the admin API is the admins'.
 */
export const clinicUsersModule = defineModule({
  name: 'clinic-users',
  async register(app, { db, now, mailer, config, auth, mfa, activity, profiles }) {
    const invitations = createInvitationsService({ db, now, mailer, publicUrl: config.publicUrl });
    const clinicUsers = createClinicUsersService({ db, invitations });
    await app.register(adminClinicUsersRoutes, { invitations, clinicUsers });
    await app.register(invitationRoutes, { invitations, auth, mfa });
    await app.register(clinicRoutes, { auth, mfa, activity, profiles, invitations, clinicUsers, now });
  },
});
