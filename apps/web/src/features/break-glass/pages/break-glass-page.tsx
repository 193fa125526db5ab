import { useState } from 'react';
import type { BreakGlassAccess } from '@app/contract/break-glass';
import {
  breakGlassStateLabels,
  breakGlassStates,
  breakGlassTexts,
  type BreakGlassState,
} from '@app/contract/break-glass-texts';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { TableWithPager } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { Tabs } from '#web/components/tabs.tsx';
import { useSession } from '#web/lib/use-session.ts';
import { useUrlFilter } from '#web/lib/use-url-filter.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useBreakGlassList } from '../api/get-break-glass-list.ts';
import { breakGlassColumns } from '../components/break-glass-columns.tsx';
import { SignOffModal } from '../components/sign-off-modal.tsx';

/**
 * /admin/break-glass (decision 082): every emergency access to a patient, awaiting sign-off (newest
 * first) or signed off. A reviewer signs off a use with a note; never their own, which says so. The
 * tab and the page live in the URL, so the bell's link and a reload land on the same list.
 */
export function BreakGlassPage() {
  const list = useUrlListState({ pageSizes: DEFAULT_PAGE_SIZES });
  const [state, setState] = useUrlFilter('state', breakGlassStates, 'open');
  const current: BreakGlassState = state || 'open';
  const me = useSession((s) => s.details?.email?.toLowerCase() ?? null);
  const [signing, setSigning] = useState<BreakGlassAccess | null>(null);
  const query = useBreakGlassList({ page: list.page, limit: list.limit, state: current });
  const { data } = query;

  const actions = (access: BreakGlassAccess) =>
    access.userEmail.toLowerCase() === me ? (
      <small className="text-body-secondary">{breakGlassTexts.ownUse}</small>
    ) : (
      <button
        type="button"
        className="btn btn-sm btn-outline-primary"
        aria-label={`${breakGlassTexts.signOff}: ${access.userName}'s emergency access on ${access.machineNumber ?? 'a patient'}`}
        onClick={() => setSigning(access)}
      >
        {breakGlassTexts.signOff}
      </button>
    );

  const table = () =>
    query.isError && !data ? (
      <LoadError
        error={query.error}
        fallback="The emergency accesses could not be loaded."
        onRetry={() => void query.refetch()}
      />
    ) : (
      <TableWithPager
        label={breakGlassStateLabels[current]}
        columns={breakGlassColumns[current]}
        rows={data?.accesses}
        getRowKey={(access) => access._id}
        emptyText={current === 'open' ? breakGlassTexts.emptyOpen : breakGlassTexts.emptySignedOff}
        isLoading={query.isPending || (query.isFetching && !data)}
        list={list}
        totalPages={data?.totalPages}
        total={data?.total}
        noun={['emergency access', 'emergency accesses']}
        pagerLabel="Break-glass pages"
        actions={current === 'open' ? actions : undefined}
        actionsHeader={current === 'open' ? 'Actions' : undefined}
      />
    );

  return (
    <>
      <PageHeader title={breakGlassTexts.title} />
      <p>{breakGlassTexts.reviewIntro}</p>
      <div className="card shadow-sm">
        <div className="card-body">
          <Tabs
            label="Emergency accesses"
            activeId={current}
            onChange={(id) => setState(id as BreakGlassState)}
            tabs={breakGlassStates.map((id) => ({ id, label: breakGlassStateLabels[id], render: table }))}
          />
        </div>
      </div>
      <SignOffModal access={signing} onClose={() => setSigning(null)} />
    </>
  );
}
