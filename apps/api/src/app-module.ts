import type { FastifyInstance } from 'fastify';
import type { AppServices } from './app-services.ts';
import type { Job } from './lib/jobs.ts';

/**
 * One module of the API (`src/modules/<domain>/<domain>-module.ts`): everything app.ts needs to
 * know about it, declared in its own folder. Adding a module adds one line to
 * `modules/module-list.ts` (and its migrations); no shared file changes (CONTRIBUTING.md).
 *
 * Its permissions are the contract's catalogue entries its routes name (`config.permission`);
 * a new one is granted to existing roles at start-up from that entry (`lib/permission-rollout.ts`).
 */
export type AppModule = {
  /** Names it in the list and in errors at start-up. */
  name: string;
  /** Its routes, hooks and decorations, on the app the shared services were built for. */
  register: (app: FastifyInstance, services: AppServices) => PromiseLike<unknown>;
  /** Periodic work, started once every module is registered (`lib/jobs.ts`). */
  jobs?: (app: FastifyInstance, services: AppServices) => Job[];
};

/** Declares a module (a typed identity: the shape is checked where it is written). */
export const defineModule = (module: AppModule): AppModule => module;
