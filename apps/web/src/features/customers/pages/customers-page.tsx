import { useState } from 'react';
import { useNavigate } from 'react-router';
import { customerMessages, type Customer } from '@app/contract/customers';
import { customerExportColumns, customerPaths, customerSortKeys } from '@app/contract/customers-texts';
import type { CustomerSortKey } from '@app/contract/customers-texts';
import { ExportCsvButton } from '#web/components/export-csv-button.tsx';
import { FilterSelect } from '#web/components/filter-select.tsx';
import { PencilIcon } from '#web/components/icons.tsx';
import { ListTools } from '#web/components/list-tools.tsx';
import { LoadError } from '#web/components/load-error.tsx';
import { PageHeader } from '#web/components/page-header.tsx';
import { AddButton, PagedTable } from '#web/components/paged-table.tsx';
import { DEFAULT_PAGE_SIZES } from '#web/components/pager.tsx';
import { SearchBox } from '#web/components/search-box.tsx';
import { columnChoicesOf, useListColumns } from '#web/components/use-column-visibility.ts';
import { facetOptions } from '#web/lib/facet-options.ts';
import { paths } from '#web/lib/paths.ts';
import { useUrlFilters } from '#web/lib/use-url-filters.ts';
import { useUrlListState } from '#web/lib/use-url-list-state.ts';
import { useCan } from '#web/lib/use-session.ts';
import { useCustomerFacets, useCustomers } from '../api/get-customers.ts';
import { customerColumns } from '../components/customer-columns.tsx';
import { CustomerFormModal } from '../components/customer-form-modal.tsx';

const choices = columnChoicesOf(customerColumns);
const facetNames = ['country'] as const;

/**
 * /admin/customers (issue 39 item 1): the clinics, searchable, filtered by country, sorted, paged,
 * with the columns the admin chooses and a CSV of exactly what is listed. Adding and editing one is
 * customers.manage's.
 */
export function CustomersPage() {
  const list = useUrlListState({
    pageSizes: DEFAULT_PAGE_SIZES,
    sortKeys: customerSortKeys,
    listKey: 'customers',
  });
  const filters = useUrlFilters(facetNames);
  const search = list.debouncedSearch || undefined;
  const listFilters = { search, country: filters.values.country };
  const query = useCustomers(
    {
      page: list.page,
      limit: list.limit,
      sort: list.sort?.key as CustomerSortKey | undefined,
      direction: list.sort?.direction,
      ...listFilters,
    },
    list.ready,
  );
  const facets = useCustomerFacets(search);
  const shown = useListColumns('customers', choices);
  const mayManage = useCan('customers.manage');
  const navigate = useNavigate();
  const [editing, setEditing] = useState<{ customer: Customer | null } | null>(null);
  const { data } = query;

  const toolbar = (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
      <SearchBox label="Search customers" value={list.search} onChange={list.setSearch} />
      <div role="group" aria-label="Filters" className="d-flex flex-wrap align-items-center gap-2">
        <FilterSelect
          label="Country"
          allLabel="All countries"
          value={filters.values.country ?? ''}
          options={facetOptions(facets.data?.countries, filters.values.country)}
          onChange={(country) => filters.set({ country })}
        />
        {filters.active ? (
          <button type="button" className="btn btn-sm btn-link" onClick={filters.clear}>
            Clear filters
          </button>
        ) : null}
      </div>
      <ListTools columns={shown} />
    </div>
  );

  return (
    <>
      <PageHeader
        title="Customers"
        actions={
          <>
            <ExportCsvButton
              path={customerPaths.export}
              query={{ ...listFilters, sort: list.sort?.key, direction: list.sort?.direction }}
              columns={{ shown: shown.visible, exportable: customerExportColumns }}
              expectedRows={data?.total}
              fileName="customers"
            />
            {mayManage ? (
              <AddButton onClick={() => setEditing({ customer: null })}>Add Customer</AddButton>
            ) : null}
          </>
        }
      />
      {query.isError && !data ? (
        <LoadError
          error={query.error}
          fallback="The customers could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <PagedTable
          toolbar={toolbar}
          label="Customers"
          columns={customerColumns}
          visibleColumns={shown.visible}
          rows={data?.customers}
          getRowKey={(c) => c._id}
          emptyText={customerMessages.empty}
          isLoading={query.isPending || (query.isFetching && !data)}
          list={list}
          totalPages={data?.totalPages}
          total={data?.total}
          noun={['customer', 'customers']}
          pagerLabel="Customers pages"
          sort={list.sort}
          onSort={list.toggleSort}
          actionsHeader="Actions"
          actions={
            mayManage
              ? (customer) => (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-primary"
                    aria-label={`Edit ${customer.name}`}
                    title="Edit"
                    onClick={() => setEditing({ customer })}
                  >
                    <PencilIcon size={16} />
                  </button>
                )
              : undefined
          }
        />
      )}
      {mayManage ? (
        <CustomerFormModal
          show={editing !== null}
          customer={editing?.customer}
          onClose={() => setEditing(null)}
          onCreated={(customer) => void navigate(paths.viewCustomer.href({ id: customer._id }))}
        />
      ) : null}
    </>
  );
}
