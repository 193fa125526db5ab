import { eq } from 'drizzle-orm';
import { erasedMark } from '@app/contract/erasure-texts';
import type { Db } from '#api/db/client.ts';
import { savedViews } from '#api/db/schema/preferences.ts';

/*
 * A saved view is a list's URL query with a name (decision 053): a search for the patient's name or
 * email may have been saved, and its name may say who it is for. The query is decoded before it is
 * read (a name is saved as 'Ada%20Glass' or 'Ada+Glass'), so it is searched here, not in SQL; saved
 * views are few per admin.
 */

const holds = (text: string, terms: readonly string[]) => {
  const lower = text.toLowerCase();
  return terms.some((t) => lower.includes(t.toLowerCase()));
};

const replaceTerms = (text: string, terms: readonly string[]) =>
  terms.reduce(
    (out, t) => out.split(new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi')).join(erasedMark),
    text,
  );

/** The query without the parameters whose value holds a term (the view still opens its list). */
function withoutTerms(query: string, terms: readonly string[]): string {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  for (const [key, value] of [...params]) if (holds(value, terms)) params.delete(key, value);
  return params.toString();
}

/** Removes the terms from every saved view's query and name; answers how many views changed. */
export async function scrubSavedViews(tx: Db, terms: readonly string[]): Promise<number> {
  const views = await tx
    .select({ id: savedViews.id, name: savedViews.name, query: savedViews.query })
    .from(savedViews);
  let n = 0;
  for (const view of views) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(view.query.replace(/\+/g, ' '));
    } catch {
      decoded = view.query;
    }
    if (!holds(decoded, terms) && !holds(view.name, terms)) continue;
    await tx
      .update(savedViews)
      // The name keeps its owner's words, and stays unique per owner and list by the view's id.
      .set({
        name: holds(view.name, terms)
          ? `${replaceTerms(view.name, terms)} (${view.id.slice(0, 8)})`
          : view.name,
        query: withoutTerms(view.query, terms),
      })
      .where(eq(savedViews.id, view.id));
    n += 1;
  }
  return n;
}
