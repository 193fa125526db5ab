import { clinicRoleLabels } from '@app/contract/clinic-users-texts';
import { Link } from '#web/components/link.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { paths } from '#web/lib/paths.ts';
import { useSession } from '#web/lib/use-session.ts';

/** /clinic: where a clinic user lands after signing in (decision 088). */
export function ClinicHomePage() {
  const clinic = useSession((s) => s.details?.clinic);
  const firstName = useSession((s) => s.details?.firstName);
  return (
    <>
      <PageHeader title={clinic?.name ?? 'Clinic portal'} />
      <p className="lead">Welcome{firstName ? `, ${firstName}` : ''}.</p>
      {clinic ? (
        <p>
          You are signed in as {clinicRoleLabels[clinic.role].toLowerCase()} of {clinic.name}.
        </p>
      ) : null}
      {clinic?.role === 'manager' ? (
        <p>
          <Link to={paths.clinicUsers.href()}>Users</Link>: invite your colleagues and remove those who left.
        </p>
      ) : null}
    </>
  );
}
