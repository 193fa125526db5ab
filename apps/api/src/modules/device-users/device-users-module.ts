import { defineModule } from '#api/app-module.ts';
import { deviceUsersRoutes } from './device-users-routes.ts';
import { createDeviceUsersService } from './device-users-service.ts';
import { createRecordAccessHistory } from './record-access-history.ts';

/** The people on the machines as the console reads them: doctors, patients, technicians (health data). */
export const deviceUsersModule = defineModule({
  name: 'device-users',
  register: (app, { db }) =>
    app.register(deviceUsersRoutes, {
      deviceUsers: createDeviceUsersService({ db }),
      accessHistory: createRecordAccessHistory({ db }),
    }),
});
