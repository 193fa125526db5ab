import { noAccessTexts, type Permission } from '@app/contract/permissions';
import { Link } from '#web/components/link.tsx';
import { paths } from '#web/lib/paths.ts';

/**
 * What a screen shows in place of itself when the admin's role lacks the permission it needs: a typed
 * URL, or an API that refused it since (decision 047). It names the permission in the catalogue's words.
 */
export function NoAccess({ permission }: { permission: Permission }) {
  return (
    <div className="card shadow-sm">
      <div className="card-body p-4">
        <h1 className="h3">{noAccessTexts.title}</h1>
        <p>{noAccessTexts.missing(permission)}</p>
        <Link to={paths.dashboard.href()} className="btn btn-primary">
          {noAccessTexts.back}
        </Link>
      </div>
    </div>
  );
}
