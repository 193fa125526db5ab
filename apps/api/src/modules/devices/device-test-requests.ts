import { apiPaths } from '@app/contract/paths';
import type { TestApp } from '#api/test/test-app.ts';

export const missingId = '00000000-0000-4000-8000-000000000000';

/** The device routes as the console calls them, signed in on the app `current()` gives. */
export function deviceRequests(current: () => { t: TestApp; token: string }) {
  const as = (options: Parameters<TestApp['injectAs']>[1]) => current().t.injectAs(current().token, options);
  const get = (id: string) => as({ method: 'GET', url: `/api/v1/admin/machine/${id}` });
  return {
    add: (payload: unknown) =>
      as({ method: 'POST', url: '/api/v1/admin/machine/add', payload: payload as object }),
    list: (query: Record<string, string | number> = {}) =>
      as({ method: 'GET', url: '/api/v1/admin/machine', query: query as Record<string, string> }),
    get,
    put: (id: string, payload: unknown) =>
      as({ method: 'PUT', url: `/api/v1/admin/machine/${id}`, payload: payload as object }),
    /** Bulk Activate / Deactivate (decision 055), as this admin or as `who`. */
    /** The first admin's session is stepped up first, as the console asks (decision 063); another's is not. */
    bulkStatus: async (payload: unknown, who = current().token) => {
      if (who === current().token) await current().t.stepUp(who);
      return current().t.injectAs(who, {
        method: 'POST',
        url: apiPaths.machineBulkStatus,
        payload: payload as object,
      });
    },
    statusOf: async (id: string) => (await get(id)).json().data.status as number,
  };
}
