import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document of every route (from its zod schemas) and its UI at /api/docs. */
export async function registerApiDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Device admin console API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // The machines' app (tag "device", docs/device-api.md): `Authorization: Device <credential>`.
          device: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Device <credential>' },
          appSession: { type: 'apiKey', in: 'header', name: 'X-App-Session' },
        },
      },
      security: [{ bearer: [] }],
      tags: [
        {
          name: 'device',
          description:
            "The treatment machines' app: enrolment, sign-in of doctors and technicians, heartbeats and batches of records (docs/device-api.md).",
        },
      ],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
}
