import { useParams } from 'react-router';
import { roleMessages } from '@app/contract/roles';
import { paths } from '#web/lib/paths.ts';
import { BackButton } from '#web/components/back-button.tsx';
import { DetailsCard } from '#web/components/details-card.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { formatDateTime } from '#web/lib/format.ts';
import { useRole } from '../api/get-role.ts';

/** /admin/view-role/:id (docs/product.md §2.10): Role Id, Role Name, Create Time (N/A when missing). */
export function ViewRolePage() {
  const { id = '' } = useParams();
  const { data: role, isPending } = useRole(id);
  return (
    <>
      <PageHeader title="Role Details" actions={<BackButton to={paths.roles.href()} />} />
      <DetailsCard
        title="Role Details"
        heading={false}
        isLoading={isPending}
        missing={!role}
        missingText={roleMessages.notFound}
        items={
          role
            ? [
                { label: 'Role Id', value: role.roleId },
                { label: 'Role Name', value: role.roleName },
                { label: 'Create Time', value: formatDateTime(role.createTime) },
              ]
            : []
        }
      />
    </>
  );
}
