import type { AuthContext } from '../modules/auth/auth-service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes are private by default; a public one says so here. */
    public?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    timeZone: string;
  }
}

/** The signed-in user of a private route (the auth hook has already refused anyone else). */
export function requireAuth(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new Error('requireAuth used on a public route');
  return request.auth;
}
