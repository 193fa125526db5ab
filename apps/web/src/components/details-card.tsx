import type { ReactNode } from 'react';
import { orNA, type Displayable } from '../lib/format.ts';
import { Spinner } from './spinner.tsx';

export type DetailItem = { label: string; value: ReactNode | Displayable };

export type DetailsCardProps = {
  title: string;
  items: readonly DetailItem[];
  actions?: ReactNode;
  isLoading?: boolean;
  /** Shown instead of the items when the record could not be found. */
  missingText?: string;
  missing?: boolean;
  /** Without a heading the card is named by `title` only: for a page whose header already names the record. */
  heading?: boolean;
};

const show = (value: DetailItem['value']) =>
  value === null ||
  value === undefined ||
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean'
    ? orNA(value)
    : value;

/** A record's fields as a labelled list in a card; empty values show N/A (docs/product.md §1). */
export function DetailsCard({
  title,
  items,
  actions,
  isLoading = false,
  missing = false,
  missingText = 'Not found.',
  heading = true,
}: DetailsCardProps) {
  return (
    <section className={heading ? 'card shadow-sm mb-4' : 'card shadow-sm'} aria-label={title}>
      {heading ? (
        <div className="card-header bg-body d-flex justify-content-between align-items-center gap-2">
          <h2 className="h5 mb-0">{title}</h2>
          {actions}
        </div>
      ) : null}
      <div className="card-body">
        {isLoading ? (
          <Spinner />
        ) : missing ? (
          <p className="mb-0 text-body-secondary">{missingText}</p>
        ) : (
          <dl className="row mb-0">
            {items.map((item) => (
              <div key={item.label} className="col-sm-6 col-lg-4 mb-3">
                <dt className="small text-body-secondary fw-semibold">{item.label}</dt>
                <dd className="mb-0 text-break">{show(item.value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </section>
  );
}

/** A card holding tabs or a list under a heading. */
export function SectionCard({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="card shadow-sm mb-4" aria-label={title}>
      <div className="card-header bg-body d-flex flex-wrap justify-content-between align-items-center gap-2">
        <h2 className="h5 mb-0">{title}</h2>
        {actions}
      </div>
      <div className="card-body">{children}</div>
    </section>
  );
}
