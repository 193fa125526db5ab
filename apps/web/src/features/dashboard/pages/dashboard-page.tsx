import { PageHeader } from '#web/components/page-header.tsx';
import { usePhone } from '#web/lib/use-media-query.ts';
import { useOperations } from '../api/get-operations.ts';
import { HighlightTiles } from '../components/highlight-tiles.tsx';
import { OperationsSection } from '../components/operations-section.tsx';

/**
 * docs/product.md §1: the spec's four tiles, now with real figures (issue 35 item 6), and the
 * Operations figures. On a phone the operations come first: they are what an admin checks there,
 * and the tiles would fill the first screen (in the document's order too, so focus follows it).
 */
export function DashboardPage() {
  const { data, isError } = useOperations();
  const phone = usePhone();
  // A failed load is said once, by the Operations section.
  const tiles = isError ? null : <HighlightTiles highlights={data?.highlights} />;
  return (
    <>
      <PageHeader title="Dashboard" />
      {phone ? null : tiles}
      <OperationsSection />
      {phone ? <div className="mt-3">{tiles}</div> : null}
    </>
  );
}
