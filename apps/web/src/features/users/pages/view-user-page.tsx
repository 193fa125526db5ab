import { useParams } from 'react-router';
import { recordHistoryPaths } from '@app/contract/record-history';
import { userMessages } from '@app/contract/users';
import { paths } from '#web/lib/paths.ts';
import { BackButton } from '#web/components/back-button.tsx';
import { DetailsCard } from '#web/components/details-card.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { RecordHistorySection } from '#web/components/record-history.tsx';
import { useCan } from '#web/lib/use-session.ts';
import { useUser } from '../api/get-user.ts';
import { TechnicianMachinesCard } from '../components/technician-machines-card.tsx';
import { UserTwoStepCard } from '../components/user-two-step-card.tsx';

/**
 * /admin/view-user/:id (docs/product.md §2.11): First Name, Last Name, User Name, Email, Phone No., Role; N/A for
 * missing. Below them, the user's two-step sign-in and its reset (issue 8, decision 014), and for a
 * technician (a role of type app) the machines they are assigned to (issue 13). The two-step card is
 * for an admin whose role carries security.manage (decision 047).
 */
export function ViewUserPage() {
  const { id = '' } = useParams();
  const { data: user, isPending } = useUser(id);
  const mayManageSecurity = useCan('security.manage');
  const name = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') || user.userName : '';
  return (
    <>
      <PageHeader title="User Details" actions={<BackButton to={paths.users.href()} />} />
      <DetailsCard
        title="User Details"
        heading={false}
        isLoading={isPending}
        missing={!user}
        missingText={userMessages.notFound}
        items={
          user
            ? [
                { label: 'First Name', value: user.firstName },
                { label: 'Last Name', value: user.lastName },
                { label: 'User Name', value: user.userName },
                { label: 'Email', value: user.email },
                { label: 'Phone No.', value: user.phone },
                { label: 'Role', value: user.role?.roleName },
              ]
            : []
        }
      />
      {user?.role?.type === 'app' ? <TechnicianMachinesCard userId={user._id} userName={name} /> : null}
      {user && mayManageSecurity ? <UserTwoStepCard userId={user._id} userName={name} /> : null}
      {user ? <RecordHistorySection kind="user" path={recordHistoryPaths.user(user._id)} /> : null}
    </>
  );
}
