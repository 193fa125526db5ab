import { formatCount } from '@app/contract/count-format';
import type { FacetValue } from '@app/contract/facets';

export type Option = { value: string; label: string };

/** The options, and the value in the URL first when none of them is it (a link or a saved view may carry any). */
export const withCurrent = (
  options: readonly Option[],
  current: string | undefined,
  label = (value: string) => value,
): Option[] =>
  current && !options.some((o) => o.value === current)
    ? [{ value: current, label: label(current) }, ...options]
    : [...options];

/**
 * A facet's values as a FilterSelect's options, each with its count ("Knee (1,204)"); `label` words
 * a value from the URL that no row has now.
 */
export const facetOptions = (
  values: readonly FacetValue[] | undefined,
  current: string | undefined,
  label?: (value: string) => string,
) =>
  withCurrent(
    (values ?? []).map((v) => ({ value: v.value, label: `${v.label} (${formatCount(v.count)})` })),
    current,
    label,
  );
