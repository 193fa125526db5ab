import { useId } from 'react';
import { SearchIcon } from './icons.tsx';

export type SearchBoxProps = {
  /** The accessible name, e.g. 'Search devices'; the visible placeholder stays 'Search'. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  className?: string;
};

/** The one search input of every list: icon, hidden label, native clear button (type=search). */
export function SearchBox({ label, value, onChange, className = '' }: SearchBoxProps) {
  const id = useId();
  return (
    <div className={`input-group search-box ${className}`.trim()} style={{ maxWidth: 360 }}>
      <span className="input-group-text" aria-hidden="true">
        <SearchIcon size={16} />
      </span>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="form-control"
        placeholder="Search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
