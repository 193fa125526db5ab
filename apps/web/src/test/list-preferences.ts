import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach } from 'vitest';
import type { ListKey, ListPreferences } from '@app/contract/preferences';
import { ok } from './fixtures.ts';
import type { Answer, Recorded } from './http-server.ts';

/**
 * The server's side of one list's kept preferences and saved views for a test file (decision 053):
 * `answer` serves GET preferences, PUT of this list (storing it in `kept`) and an empty views list;
 * `kept` is emptied before each test.
 */
export function keptListPreferences(list: ListKey) {
  const store: { kept: ListPreferences | undefined } = { kept: undefined };
  beforeEach(() => (store.kept = undefined));
  return {
    get kept() {
      return store.kept;
    },
    set kept(prefs: ListPreferences | undefined) {
      store.kept = prefs;
    },
    answer(request: Recorded, url: URL): Answer | undefined {
      if (url.pathname === '/api/v1/admin/preferences')
        return ok({ lists: store.kept ? { [list]: store.kept } : {}, colorMode: 'system' });
      if (url.pathname === `/api/v1/admin/preferences/lists/${list}` && request.method === 'PUT')
        return ok((store.kept = JSON.parse(request.body) as ListPreferences), 'Preferences saved');
      if (url.pathname === '/api/v1/admin/views') return ok({ views: [] });
      return undefined;
    },
  };
}

/** The table's column headers with a name (the selection box's header has none). */
export const headersOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent)
    .filter(Boolean);

/** In the list's column chooser (opened and closed here): move `moveUp` one place up, hide `hide`. */
export async function reorderAndHide({
  moveUp,
  hide,
  chooser,
}: {
  moveUp: string;
  hide: string;
  chooser?: HTMLElement;
}) {
  const scope = chooser ? within(chooser) : screen;
  const button = scope.getByRole('button', { name: 'Columns' });
  await userEvent.click(button);
  // The chooser's panel loads on first use.
  await userEvent.click(await scope.findByRole('button', { name: `Move ${moveUp} up` }));
  await userEvent.click(scope.getByRole('checkbox', { name: hide }));
  await userEvent.keyboard('{Escape}');
}
