import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkBodyBytes,
  bulkLimit,
  bulkResponseSchema,
  bulkSummary,
  deviceBulkStatusBodySchema,
} from '@app/contract/bulk-actions';
import {
  deviceAppVersionListQuerySchema,
  deviceAppVersionListResponseSchema,
  deviceCreateBodySchema,
  deviceIdParamSchema,
  deviceListResponseSchema,
  deviceMessages,
  deviceResponseSchema,
  deviceUpdateBodySchema,
} from '@app/contract/devices';
import {
  deviceFacetsQuerySchema,
  deviceFacetsResponseSchema,
  deviceListQuerySchema,
} from '@app/contract/device-filters';
import { deviceExportQuerySchema } from '@app/contract/device-export';
import { deviceMapQuerySchema, deviceMapResponseSchema } from '@app/contract/device-map';
import { apiPaths } from '@app/contract/paths';
import { csvExportRoute } from '#api/lib/csv-export.ts';
import { ok } from '#api/lib/envelope.ts';
import { historyActorOf } from '#api/lib/record-history.ts';
import type { DeviceAppVersionsService } from './device-app-versions.ts';
import type { DevicesService } from './devices-service.ts';

export const devicesRoutes: FastifyPluginAsyncZod<{
  devices: DevicesService;
  appVersions: DeviceAppVersionsService;
  /** The fleet map's tiles (MAP_TILE_URL), handed to the console with each map answer. */
  mapTiles: { url: string; attribution: string } | null;
}> = async (app, { devices, appVersions, mapTiles }) => {
  app.get(
    apiPaths.machines,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary:
          'Device list: page, limit, search (machine number, serial number, location, city, country), sort, direction, and the facets online, status, subscriptionStatus, country, city, appVersion',
        querystring: deviceListQuerySchema,
        response: { 200: deviceListResponseSchema },
      },
    },
    async (request) => ok(await devices.list(request.query)),
  );

  app.get(
    apiPaths.machineMap,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary:
          "Fleet map: the device list's search and filters, clustered by place for the view's bounds (west, south, east, north) and zoom; without bounds, the matches' count and extent too",
        querystring: deviceMapQuerySchema,
        response: { 200: deviceMapResponseSchema },
      },
    },
    async (request) => ok({ ...(await devices.map(request.query)), tiles: mapTiles }),
  );

  app.get(
    apiPaths.machineFacets,
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary:
          "The device list's facet values (countries, cities within an optional country, app versions), each with how many machines have it",
        querystring: deviceFacetsQuerySchema,
        response: { 200: deviceFacetsResponseSchema },
      },
    },
    async (request) => ok(await devices.facets(request.query)),
  );

  csvExportRoute(app, {
    path: apiPaths.machineExport,
    permission: 'devices.view',
    tag: 'devices',
    summary:
      "The device list as a CSV file: the list's filters and the columns to write (columns=a,b,…), every matching row, streamed",
    query: deviceExportQuerySchema,
    list: 'devices',
    csv: (query, counted) => devices.exportCsv(query, counted),
  });

  app.post(
    apiPaths.machineAdd,
    {
      config: { access: 'admin', permission: 'devices.edit' },
      schema: {
        tags: ['devices'],
        summary: 'Add a device',
        body: deviceCreateBodySchema,
        response: { 201: deviceResponseSchema },
      },
    },
    async (request, reply) => {
      const device = await devices.create(request.body, historyActorOf(request));
      return reply.code(201).send(ok(device, deviceMessages.added, 201));
    },
  );

  app.get(
    apiPaths.machine(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary: 'One device',
        params: deviceIdParamSchema,
        response: { 200: deviceResponseSchema },
      },
    },
    async (request) => ok(await devices.get(request.params.id)),
  );

  app.put(
    apiPaths.machine(':id'),
    {
      config: { access: 'admin', permission: 'devices.edit' },
      schema: {
        tags: ['devices'],
        summary:
          'Update a device: the whole form (machine and serial number cannot change) or only { status }',
        params: deviceIdParamSchema,
        body: deviceUpdateBodySchema,
        response: { 200: deviceResponseSchema },
      },
    },
    async (request) => {
      const { device, statusOnly, changed } = await devices.update(
        request.params.id,
        request.body,
        historyActorOf(request),
      );
      request.auditFields = changed;
      return ok(device, statusOnly ? deviceMessages.statusUpdated : deviceMessages.updated);
    },
  );

  app.post(
    apiPaths.machineBulkStatus,
    {
      // The list's status select needs devices.edit: so does doing it to many (decision 055), and
      // since it can stop thousands of machines at once, a fresh step-up too (decision 063).
      config: { access: 'admin', permission: 'devices.edit', stepUp: true },
      bodyLimit: bulkBodyBytes,
      schema: {
        tags: ['devices'],
        summary: `Set the status of the devices picked (ids) or of every device the list's filters match (allMatching: search, online), at most ${bulkLimit.toLocaleString('en-US')}; answered per device`,
        body: deviceBulkStatusBodySchema,
        response: { 200: bulkResponseSchema },
      },
    },
    async function bulkDeviceStatus(request) {
      const { doneIds, ...answer } = await devices.bulkStatus(request.body, historyActorOf(request));
      request.auditFields = ['status'];
      request.auditActedIds = doneIds;
      return ok(answer, bulkSummary(answer));
    },
  );

  app.get(
    apiPaths.machineAppVersions(':id'),
    {
      config: { access: 'admin', permission: 'devices.view' },
      schema: {
        tags: ['devices'],
        summary:
          "A device's app version history: each versionCode its heartbeats reported, with when it was first seen, newest first",
        params: deviceIdParamSchema,
        querystring: deviceAppVersionListQuerySchema,
        response: { 200: deviceAppVersionListResponseSchema },
      },
    },
    async (request) => ok(await appVersions.list(request.params.id, request.query)),
  );
};
