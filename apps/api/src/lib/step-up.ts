import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { stepUpMessages, stepUpMinutes, type StepUpRequired } from '@app/contract/step-up';
import { AppError } from './errors.ts';
import { routeConfigOf } from './route-config.ts';
import type { AuthContext, RouteAccess } from './request-context.ts';

/*
 * Step-up (docs/decisions/046): a dangerous action needs the admin's password (and code, when their
 * two-step sign-in is on) confirmed on this session within the last `stepUpMinutes`. The route says
 * so in its config, read once per request like its access and permission:
 *
 *   stepUp: true                         always (revoking a machine, resetting another's two-step sign-in)
 *   stepUp: (request) => boolean          decided on the validated request, after the permission check
 *                                         (a user form that touches an admin role, a role whose access changes)
 *   stepUp: 'in-handler'                  decided by the handler once it knows (a streamed upload's fields):
 *                                         it calls app.requireStepUp(request)
 *   stepUp: 'signature'                   the body carries an electronic signature (decision 083): the
 *                                         handler's sign() checks the password (and code) in its
 *                                         transaction before anything is kept, which is this request's step-up
 *
 * Without a fresh confirmation the answer is 403 with `data: { stepUpRequired: true, needsCode }`;
 * the console then asks for the password and sends the request again.
 */

export type StepUpRule =
  true | 'in-handler' | 'signature' | ((request: FastifyRequest) => boolean | Promise<boolean>);

/** How the route registry records a route's rule (the step-up tests walk it). */
export type StepUpKind = 'always' | 'conditional' | 'in-handler' | 'signature';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This admin action needs a fresh step-up (lib/step-up.ts). */
    stepUp?: StepUpRule;
    /**
     * Throws a 403 when this admin may not make this change at all (nobody grants what they do not
     * hold, decision 063). Runs before the step-up, so nobody confirms a password only to be refused.
     */
    authorize?: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /**
     * This request was answered with the step-up prompt: a question to the admin, not a failure,
     * so it is no error row and no refusal in the audit trail (issue 35 item 10).
     */
    stepUpAsked?: boolean;
  }
  interface FastifyInstance {
    /** Throws the step-up 403 unless the signed-in admin confirmed the password within `stepUpMinutes`. */
    requireStepUp(request: FastifyRequest): Promise<void>;
  }
}

const windowMs = stepUpMinutes * 60_000;

/** Until when a step-up at `at` lets dangerous actions through. */
export const stepUpLapsesAt = (at: Date) => new Date(at.getTime() + windowMs);

/** Confirmed on this session, and less than `stepUpMinutes` ago by the service clock. */
export function isSteppedUp(auth: Pick<AuthContext, 'steppedUpAt'>, now: Date): boolean {
  if (!auth.steppedUpAt) return false;
  const elapsed = now.getTime() - auth.steppedUpAt.getTime();
  return elapsed >= 0 && elapsed < windowMs;
}

export class StepUpRequiredError extends AppError {
  constructor(needsCode: boolean) {
    super(403, stepUpMessages.required, { stepUpRequired: true, needsCode } satisfies StepUpRequired);
  }
}

/**
 * The rule a route declared, checked at registration like its access: only an admin route may
 * declare one (nothing else has a session to step up), and only a known form.
 */
export function routeStepUp(
  route: Pick<RouteOptions, 'url' | 'method' | 'config'>,
  access: RouteAccess,
): StepUpKind | undefined {
  const declared = route.config?.stepUp;
  if (declared === undefined) return undefined;
  const name = `Route ${String(route.method)} ${route.url}`;
  if (access !== 'admin')
    throw new Error(`${name}: only an admin route declares a step-up (its access is ${access})`);
  if (declared === true) return 'always';
  if (declared === 'in-handler') return 'in-handler';
  if (declared === 'signature') return 'signature';
  if (typeof declared === 'function') return 'conditional';
  throw new Error(
    `${name}: stepUp must be true, 'in-handler', 'signature' or a function, not ${JSON.stringify(declared)}`,
  );
}

/**
 * Installs the check: a preHandler (after validation, so a predicate sees the parsed body), preceded
 * by the route's own `authorize`, and `app.requireStepUp` for handlers. `needsCode` is asked only when refusing, so the console knows
 * whether to show a code field; a stepped-up request costs no query here.
 */
export function installStepUpGate(
  app: FastifyInstance,
  { now, needsCode }: { now: () => Date; needsCode: (userId: string) => Promise<boolean> },
) {
  const requireStepUp = async (request: FastifyRequest) => {
    const auth = request.auth;
    // Only admin routes declare a rule, and the auth hook has refused anyone without a session.
    if (!auth) throw new Error('a step-up rule on a route without a signed-in admin');
    if (isSteppedUp(auth, now())) return;
    request.stepUpAsked = true;
    throw new StepUpRequiredError(await needsCode(auth.userId));
  };
  app.decorate('requireStepUp', requireStepUp);
  app.addHook('preHandler', async (request) => {
    const config = routeConfigOf(request);
    if (config.authorize) await config.authorize(request);
    const rule = config.stepUp;
    if (rule === undefined || rule === 'in-handler' || rule === 'signature') return;
    if (request.auth && isSteppedUp(request.auth, now())) return;
    if (rule === true || (await rule(request))) await requireStepUp(request);
  });
}
