import { Link } from '#web/components/link.tsx';
import type { AdminProfile } from '@app/contract/auth';
import { paths } from '#web/lib/paths.ts';
import { PageHeader } from '#web/components/page-header.tsx';
import { Spinner } from '#web/components/spinner.tsx';
import { webMessages } from '@app/contract/web-messages';
import { orNA } from '#web/lib/format.ts';
import { useProfile } from '../api/get-profile.ts';
import { AlarmDigestCard } from '../components/alarm-digest-card.tsx';
import { ProfileAvatar } from '../components/profile-avatar.tsx';
import { TwoStepCard } from '../components/two-step-card.tsx';

const rows: [label: string, value: (p: AdminProfile) => string | null][] = [
  ['First Name', (p) => p.firstName],
  ['Last Name', (p) => p.lastName],
  ['User Name', (p) => p.userName],
  ['Email', (p) => p.email],
  ['Phone Number', (p) => p.phone],
  ['Role', (p) => p.role?.roleName ?? null],
];

/** /admin/profile: My Profile, with the Update Profile button (docs/product.md §2.15). */
export function ProfilePage() {
  const { data: profile, isPending, isError } = useProfile();
  return (
    <>
      <PageHeader
        title="My Profile"
        actions={
          <Link to={paths.updateProfile.href()} className="btn btn-primary">
            Update Profile
          </Link>
        }
      />
      <div className="card shadow-sm">
        <div className="card-body">
          {isPending ? (
            <Spinner />
          ) : isError || !profile ? (
            <p className="mb-0">{webMessages.genericError}</p>
          ) : (
            <div className="d-flex flex-column flex-md-row gap-4 align-items-md-start">
              <ProfileAvatar
                src={profile.profileImage}
                alt={`Profile picture of ${profile.userName}`}
                size={120}
              />
              <dl className="row mb-0 flex-grow-1">
                {rows.map(([label, value]) => (
                  <div className="col-sm-6 mb-3" key={label}>
                    <dt className="small text-body-secondary fw-normal">{label}</dt>
                    <dd className="mb-0 fw-medium text-break">{orNA(value(profile))}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
        </div>
      </div>
      <TwoStepCard />
      <AlarmDigestCard />
    </>
  );
}
