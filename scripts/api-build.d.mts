/** The compiled API's entry point (apps/api/dist/server.js). */
export const apiServerEntry: string;
/** Builds the API when its sources changed since the last build; resolves to whether it built. */
export function buildApiIfStale(options?: { quiet?: boolean }): Promise<boolean>;
