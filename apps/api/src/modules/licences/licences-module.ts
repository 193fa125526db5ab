import { defineModule } from '#api/app-module.ts';
import { licencesRoutes } from './licences-routes.ts';

/**
 * Machines' licences (decision 068): the console's Licence card and exemptions, and the sweeps that
 * follow the clock: licences whose time is up every LICENCE_SWEEP_SECONDS, every machine daily and
 * at start. The licences themselves are a shared service (app-services.ts).
 */
export const licencesModule = defineModule({
  name: 'licences',
  register: (app, { licences }) => app.register(licencesRoutes, { licences }),
  jobs: (_app, { config, licences }) => [
    { name: 'licence sweep', everySeconds: config.licences.sweepSeconds, run: () => licences.sweep() },
    {
      name: 'licence full sweep',
      everySeconds: config.licences.sweepSeconds > 0 ? 86_400 : 0,
      atStart: true,
      run: () => licences.sweep(true),
    },
  ],
});
