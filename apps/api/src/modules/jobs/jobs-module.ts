import { defineModule } from '#api/app-module.ts';
import { jobsRoutes } from './jobs-routes.ts';
import { createJobsService } from './jobs-service.ts';

/** The Jobs screen's API: the periodic jobs every module declares, as the queue ran them (decision 075). */
export const jobsModule = defineModule({
  name: 'jobs',
  register: (app, { db, config }) =>
    app.register(jobsRoutes, {
      // Read per request: app.ts collects the jobs once every module is registered.
      jobs: createJobsService({ db, jobs: () => app.declaredJobs, runsHere: config.runJobs }),
    }),
});
