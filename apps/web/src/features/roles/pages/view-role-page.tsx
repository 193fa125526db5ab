import { useParams } from 'react-router';
import { roleMessages } from '@app/contract/roles';
import { BackButton } from '../../../components/back-button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime, orNA } from '../../../lib/format.ts';
import { useRole } from '../api/get-role.ts';

/** /admin/view-role/:id (SPEC 2): Role Id, Role Name, Create Time (N/A when missing). */
export function ViewRolePage() {
  const { id = '' } = useParams();
  const { data: role, isPending } = useRole(id);
  const items = role
    ? [
        { label: 'Role Id', value: orNA(role.roleId) },
        { label: 'Role Name', value: orNA(role.roleName) },
        { label: 'Create Time', value: formatDateTime(role.createTime) },
      ]
    : [];
  return (
    <>
      <PageHeader title="Role Details" actions={<BackButton to="/admin/roles" />} />
      <section className="card shadow-sm" aria-label="Role Details">
        <div className="card-body">
          {isPending ? (
            <Spinner />
          ) : !role ? (
            <p className="mb-0 text-body-secondary">{roleMessages.notFound}</p>
          ) : (
            <dl className="row mb-0">
              {items.map((item) => (
                <div key={item.label} className="col-sm-6 col-lg-4 mb-3">
                  <dt className="small text-body-secondary fw-semibold">{item.label}</dt>
                  <dd className="mb-0 text-break">{item.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      </section>
    </>
  );
}
