import { useParams } from 'react-router';
import { userMessages } from '@app/contract/users';
import { BackButton } from '../../../components/back-button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { orNA } from '../../../lib/format.ts';
import { useUser } from '../api/get-user.ts';

/** /admin/view-user/:id (SPEC 2): First Name, Last Name, User Name, Email, Phone No., Role; N/A for missing. */
export function ViewUserPage() {
  const { id = '' } = useParams();
  const { data: user, isPending } = useUser(id);
  const items = user
    ? [
        { label: 'First Name', value: orNA(user.firstName) },
        { label: 'Last Name', value: orNA(user.lastName) },
        { label: 'User Name', value: orNA(user.userName) },
        { label: 'Email', value: orNA(user.email) },
        { label: 'Phone No.', value: orNA(user.phone) },
        { label: 'Role', value: orNA(user.role?.roleName) },
      ]
    : [];
  return (
    <>
      <PageHeader title="User Details" actions={<BackButton to="/admin/user-management" />} />
      <section className="card shadow-sm" aria-label="User Details">
        <div className="card-body">
          {isPending ? (
            <Spinner />
          ) : !user ? (
            <p className="mb-0 text-body-secondary">{userMessages.notFound}</p>
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
