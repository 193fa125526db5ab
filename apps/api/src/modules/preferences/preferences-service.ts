import { and, asc, desc, eq, or } from 'drizzle-orm';
import type {
  ColorMode,
  ListKey,
  ListPreferences,
  Preferences,
  SavedView,
  SavedViewBody,
} from '@app/contract/preferences';
import { defaultColorMode, preferenceMessages } from '@app/contract/preferences';
import type { Db } from '#api/db/client.ts';
import { adminListPreferences, adminSettings, savedViews } from '#api/db/schema/preferences.ts';
import { users } from '#api/db/schema/users.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#api/lib/errors.ts';
import { isUniqueViolation } from '#api/lib/pagination.ts';

/** Each admin's list preferences and the lists' saved views (decision 053). */
export function createPreferencesService({ db, now }: { db: Db; now: () => Date }) {
  const viewOf = (
    row: typeof savedViews.$inferSelect & { ownerName: string },
    userId: string,
  ): SavedView => ({
    _id: row.id,
    list: row.list,
    name: row.name,
    query: row.query,
    shared: row.shared,
    ownerName: row.ownerName,
    mine: row.ownerId === userId,
    createdAt: row.createdAt.toISOString(),
  });
  const viewColumns = {
    id: savedViews.id,
    ownerId: savedViews.ownerId,
    list: savedViews.list,
    name: savedViews.name,
    query: savedViews.query,
    shared: savedViews.shared,
    createdAt: savedViews.createdAt,
    ownerName: users.userName,
  };

  return {
    async all(userId: string): Promise<Preferences> {
      const [rows, [settings]] = await Promise.all([
        db.select().from(adminListPreferences).where(eq(adminListPreferences.userId, userId)),
        db
          .select({ colorMode: adminSettings.colorMode })
          .from(adminSettings)
          .where(eq(adminSettings.userId, userId)),
      ]);
      return {
        colorMode: settings?.colorMode ?? defaultColorMode,
        lists: Object.fromEntries(
          rows.map((r) => [
            r.list,
            { columns: r.columns ?? null, pageSize: r.pageSize, sort: r.sort ?? null },
          ]),
        ),
      };
    },

    async saveList(userId: string, list: ListKey, prefs: ListPreferences): Promise<ListPreferences> {
      const values = { columns: prefs.columns, pageSize: prefs.pageSize, sort: prefs.sort, updatedAt: now() };
      await db
        .insert(adminListPreferences)
        .values({ userId, list, ...values })
        .onConflictDoUpdate({
          target: [adminListPreferences.userId, adminListPreferences.list],
          set: values,
        });
      return prefs;
    },

    async saveColorMode(userId: string, colorMode: ColorMode): Promise<{ colorMode: ColorMode }> {
      const values = { colorMode, updatedAt: now() };
      await db
        .insert(adminSettings)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: adminSettings.userId, set: values });
      return { colorMode };
    },

    /** The admin's own views of the list and every admin's shared ones, by name. */
    async views(userId: string, list: ListKey): Promise<SavedView[]> {
      const rows = await db
        .select(viewColumns)
        .from(savedViews)
        .innerJoin(users, eq(users.id, savedViews.ownerId))
        .where(
          and(eq(savedViews.list, list), or(eq(savedViews.ownerId, userId), eq(savedViews.shared, true))),
        )
        .orderBy(asc(savedViews.name), desc(savedViews.createdAt));
      return rows.map((r) => viewOf(r, userId));
    },

    async saveView(userId: string, body: SavedViewBody): Promise<SavedView> {
      try {
        const [row] = await db
          .insert(savedViews)
          .values({
            ownerId: userId,
            list: body.list,
            name: body.name,
            query: body.query,
            shared: body.shared,
          })
          .returning();
        const [owner] = await db.select({ userName: users.userName }).from(users).where(eq(users.id, userId));
        return viewOf({ ...row!, ownerName: owner?.userName ?? '' }, userId);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(preferenceMessages.viewNameTaken);
        throw error;
      }
    },

    /** Only the admin who saved a view deletes it; a shared view is still theirs. */
    async deleteView(userId: string, id: string): Promise<{ _id: string }> {
      const [row] = await db
        .select({ ownerId: savedViews.ownerId, shared: savedViews.shared })
        .from(savedViews)
        .where(eq(savedViews.id, id));
      if (!row || (row.ownerId !== userId && !row.shared))
        throw new NotFoundError(preferenceMessages.viewNotFound);
      if (row.ownerId !== userId) throw new ForbiddenError(preferenceMessages.viewNotYours);
      await db.delete(savedViews).where(eq(savedViews.id, id));
      return { _id: id };
    },
  };
}
export type PreferencesService = ReturnType<typeof createPreferencesService>;
