/**
 * Query key factory (docs/architecture.md §6, key factories): all → lists → list(params) → details → detail(id).
 * A mutation invalidates `lists()` and the touched `detail(id)`.
 *
 *   export const deviceKeys = createQueryKeys('devices');
 *   useQuery({ queryKey: deviceKeys.list({ page, limit, search }), queryFn: ... });
 *   queryClient.invalidateQueries({ queryKey: deviceKeys.lists() });
 */
export function createQueryKeys<const Domain extends string>(domain: Domain) {
  const all = [domain] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: <P extends object>(params: P) => [...all, 'list', params] as const,
    details: () => [...all, 'detail'] as const,
    detail: (id: string | number) => [...all, 'detail', String(id)] as const,
  };
}
