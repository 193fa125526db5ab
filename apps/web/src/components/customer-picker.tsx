import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import type { CustomerList } from '@app/contract/customers';
import { customerPaths } from '@app/contract/customers-texts';
import { apiClient } from '../lib/api-client.ts';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';
import { Combobox, type ComboboxOption } from './combobox.tsx';

/** How many customers the picker offers at once: typing narrows them. */
export const CUSTOMER_OPTIONS_LIMIT = 20;

/*
 * The customers a picker offers (Device Details' assignment, the bulk assignment, the payment link):
 * shared, since a feature never imports another; under the customers' list key, so a new customer
 * shows up in it.
 */
function useCustomerOptions(search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['customers', 'list', { picker: true, search }],
    enabled,
    queryFn: async ({ signal }) => {
      const response = await apiClient.getList<CustomerList>(customerPaths.list, {
        query: { page: 1, limit: CUSTOMER_OPTIONS_LIMIT, search: search || undefined, sort: 'name' },
        signal,
      });
      return response.data;
    },
    placeholderData: keepPreviousData,
  });
}

export type CustomerPickerProps<T extends FieldValues> = {
  control: Control<T>;
  /** The form's field holding the chosen customer's id ('' when none). */
  name: Path<T>;
  label?: string;
  required?: boolean;
  hint?: string;
  /** A customer to leave out (the one holding the machine now). */
  exclude?: string | null;
};

/**
 * A customer picked by typing part of its name, country, billing email or tax id (Combobox): the
 * form's field holds its id. Keyboard usable, its error under it like any field.
 */
export function CustomerPicker<T extends FieldValues>({
  control,
  name,
  label = 'Customer',
  required = true,
  hint,
  exclude,
}: CustomerPickerProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<ComboboxOption | null>(null);
  const search = useDebouncedValue(text.trim(), 300);
  // The typed text is the chosen one's label: every customer is offered again, not only that one.
  const options = useCustomerOptions(chosen && chosen.label === text ? '' : search, true);
  const rows = (options.data?.customers ?? []).filter((c) => c._id !== exclude);
  const total = options.data?.total ?? 0;
  const more = total > CUSTOMER_OPTIONS_LIMIT ? `${total} customers: type to narrow them down.` : undefined;
  // The dialog around it unmounts it when closed, so a new opening starts empty.
  const selected = field.value ? chosen : null;
  return (
    <Combobox
      label={label}
      name={field.name}
      required={required}
      selected={selected}
      onSelect={(option) => {
        setChosen(option);
        field.onChange(option?.value ?? '');
      }}
      text={text}
      onTextChange={setText}
      options={rows.map((c) => ({ value: c._id, label: c.name, hint: c.country }))}
      isLoading={options.isFetching}
      emptyText={options.isError ? 'The customers could not be loaded.' : 'No customer matches.'}
      error={fieldState.error?.message}
      hint={[hint, more].filter(Boolean).join(' ') || undefined}
      onBlur={field.onBlur}
    />
  );
}
