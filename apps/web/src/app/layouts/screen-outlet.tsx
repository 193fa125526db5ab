import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Permission } from '@app/contract/permissions';
import { deniedPermissionOf } from '#web/lib/permission-error.ts';
import { useHeldPermissions } from '#web/lib/use-session.ts';
import { NoAccess } from './no-access.tsx';
import { screenPermission } from './screen-permissions.ts';
import { useRolePermissionsRefresh } from './use-role-permissions-refresh.ts';

/**
 * The permission the API refused a query of this screen for: the role changed since the console read
 * it. The query cache does not toast it (query-client.ts); the screen gives way to the no-access page
 * until the admin goes elsewhere, where the next screen asks again.
 */
function useRefusedHere(pathname: string): Permission | null {
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState<{ pathname: string; permission: Permission } | null>(null);
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        const permission = deniedPermissionOf(event.action.error);
        if (permission) setRefused({ pathname, permission });
      }),
    [queryClient, pathname],
  );
  return refused?.pathname === pathname ? refused.permission : null;
}

/**
 * The admin layout's outlet: the screen, or the no-access page when the admin's role lacks what it
 * needs. Then the screen is not rendered at all, so none of its data is asked for (decision 047).
 */
export function ScreenOutlet() {
  const { pathname } = useLocation();
  const held = useHeldPermissions();
  const refused = useRefusedHere(pathname);
  useRolePermissionsRefresh(refused);
  const needs = screenPermission(pathname);
  const missing = needs && !held.includes(needs) ? needs : refused;
  return missing ? <NoAccess permission={missing} /> : <Outlet />;
}
