import type { AuthContext } from '../modules/auth/auth-service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route: anyone (`public`) or a signed-in console user, whose role is of
     * type admin (`admin`). Every route must declare it; a test fails on any that does not.
     */
    access?: 'public' | 'admin';
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
