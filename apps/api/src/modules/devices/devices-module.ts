import { defineModule } from '#api/app-module.ts';
import { createDeviceAppVersionsService } from './device-app-versions.ts';
import { devicesRoutes } from './devices-routes.ts';
import { createDevicesService } from './devices-service.ts';

/** Device Management: the fleet's list, facets, map, export, details and bulk status. */
export const devicesModule = defineModule({
  name: 'devices',
  register: (app, { db, now, config }) =>
    app.register(devicesRoutes, {
      devices: createDevicesService({ db, now, offlineMinutes: config.deviceOfflineMinutes }),
      appVersions: createDeviceAppVersionsService({ db }),
      mapTiles: config.map.tileUrl ? { url: config.map.tileUrl, attribution: config.map.attribution } : null,
    }),
});
