import { checkoutPagePath } from '@app/contract/subscription-operations';
import { defineModule } from '#api/app-module.ts';
import { createLicenceNotices, type LicenceNotices } from './licence-notices-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reminder and dunning mails; tests run them with the clock where they want it. */
    licenceNotices: LicenceNotices;
  }
}

/**
 * Reminder and dunning mails about machines' licences (issue 34 item 6): a job every
 * LICENCE_SWEEP_SECONDS writes each one owed to the outbox, once per machine, kind and paid period,
 * however many API instances run it.
 */
export const licenceNoticesModule = defineModule({
  name: 'licence-notices',
  register: async (app, { db, mailer, now, config }) => {
    app.decorate(
      'licenceNotices',
      createLicenceNotices({
        db,
        mailer,
        now,
        reminderDays: config.licences.reminderDays,
        cardUpdateLink: null,
        paymentLink: (id) => `${config.publicUrl}${checkoutPagePath(id)}`,
      }),
    );
  },
  jobs: (app, { config }) => [
    {
      name: 'licence notices',
      everySeconds: config.licences.sweepSeconds,
      run: () => app.licenceNotices.run(),
    },
  ],
});
