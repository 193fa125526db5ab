import { useId } from 'react';

type Props<V extends string> = {
  label: string;
  value: V | '';
  /** The first option, choosing no filter. */
  allLabel: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (value: V | '') => void;
};

/**
 * A list's filter beside its search: a labelled select whose value the page keeps in the URL. At 320 px
 * the label wraps above the select and the select shrinks, so a long option never widens the page.
 */
export function FilterSelect<V extends string>({ label, value, allLabel, options, onChange }: Props<V>) {
  const id = useId();
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mw-100">
      <label htmlFor={id} className="form-label mb-0 text-nowrap">
        {label}
      </label>
      <select
        id={id}
        className="form-select form-select-sm w-auto mw-100"
        value={value}
        onChange={(event) => onChange(event.target.value as V | '')}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
