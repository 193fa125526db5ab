import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export type TabItem = {
  id: string;
  label: string;
  /** Called only while the tab is active, so a list inside loads only when shown (docs/product.md §4.7). */
  render: () => ReactNode;
};

export type TabsProps = {
  tabs: readonly TabItem[];
  /** Names the tab list. */
  label: string;
  /** Controlled: the active tab's id. */
  activeId?: string;
  defaultActiveId?: string;
  onChange?: (id: string) => void;
};

/** WAI-ARIA tabs: arrow keys, Home and End move and activate; only the active panel is rendered. */
export function Tabs({ tabs, label, activeId, defaultActiveId, onChange }: TabsProps) {
  const baseId = useId();
  const [internal, setInternal] = useState(defaultActiveId ?? tabs[0]?.id);
  const current = activeId ?? internal;
  const active = tabs.find((t) => t.id === current) ?? tabs[0];
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});

  const select = (id: string) => {
    if (activeId === undefined) setInternal(id);
    onChange?.(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const tab = tabs[target];
    if (!tab) return;
    select(tab.id);
    buttons.current[tab.id]?.focus();
  };

  return (
    <div className="tabs">
      <div className="nav nav-tabs" role="tablist" aria-label={label}>
        {tabs.map((tab, index) => {
          const selected = tab.id === active?.id;
          return (
            <button
              key={tab.id}
              ref={(el) => {
                buttons.current[tab.id] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={selected}
              aria-controls={selected ? `${baseId}-panel-${tab.id}` : undefined}
              tabIndex={selected ? 0 : -1}
              className={`nav-link${selected ? ' active' : ''}`}
              onClick={() => select(tab.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {active ? (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${active.id}`}
          aria-labelledby={`${baseId}-tab-${active.id}`}
          tabIndex={0}
          className="tab-panel pt-3"
        >
          {active.render()}
        </div>
      ) : null}
    </div>
  );
}
