import { Readable } from 'node:stream';
import { and, eq, ne, sql } from 'drizzle-orm';
import { accountMessages, type ProfileUpdateFields } from '@app/contract/account';
import type { AdminProfile } from '@app/contract/auth';
import { isPermission } from '@app/contract/permissions';
import { apiPaths } from '@app/contract/paths';
import type { Db } from '#api/db/client.ts';
import { customers } from '#api/db/schema/customers.ts';
import { clinicRoleIds, roles, users } from '#api/db/schema/users.ts';
import { ConflictError, NotFoundError } from '#api/lib/errors.ts';
import { withActor, type HistoryActor } from '#api/lib/record-history.ts';
import type { Storage } from '#api/lib/storage/storage.ts';
import { storageKey } from '#api/lib/storage/storage-key.ts';
import { cleanProfileImage } from './profile-image.ts';

const profileColumns = {
  _id: users.id,
  userName: users.userName,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phone: users.phone,
  profileImage: users.profileImage,
  isDeletable: users.isDeletable,
  roleId: roles.id,
  roleName: roles.roleName,
  roleType: roles.type,
  rolePermissions: roles.permissions,
  // A clinic user's clinic (issue 39 item 3, decision 088): its id and name, joined when there is one.
  customerId: customers.id,
  customerName: customers.name,
};

type ProfileRow = { [K in keyof typeof profileColumns]: (typeof profileColumns)[K]['_']['data'] | null };

export const toAdminProfile = (row: ProfileRow): AdminProfile => ({
  _id: row._id!,
  userName: row.userName!,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email!,
  phone: row.phone,
  profileImage: row.profileImage,
  isDeletable: row.isDeletable ?? true,
  role: row.roleId
    ? {
        _id: row.roleId,
        roleName: row.roleName!,
        type: row.roleType!,
        // What the console shows and hides follows these; the API checks them on every request.
        permissions: (row.rolePermissions ?? []).filter(isPermission),
      }
    : null,
  ...(row.customerId && row.roleType === 'clinic'
    ? {
        clinic: {
          _id: row.customerId,
          name: row.customerName!,
          role: row.roleId === clinicRoleIds.manager ? ('manager' as const) : ('staff' as const),
        },
      }
    : {}),
});

const avatarPrefix = 'avatars';
const avatarName = /^[a-f0-9]{32}\.(png|jpg)$/;

/** The storage key behind a profileImage URL of ours, or null for anything else. */
export function avatarKeyOf(profileImage: string | null): string | null {
  if (!profileImage) return null;
  const name = profileImage.slice(apiPaths.profileImage('').length);
  return profileImage.startsWith(apiPaths.profileImage('')) && avatarName.test(name)
    ? `${avatarPrefix}/${name}`
    : null;
}

type ProfileDeps = {
  db: Db;
  storage?: Storage;
  now?: () => Date;
  log?: { warn: (obj: object, msg?: string) => void };
};

export function createProfileService({ db, storage, now = () => new Date(), log }: ProfileDeps) {
  const needStorage = () => {
    if (!storage) throw new Error('profile service built without storage');
    return storage;
  };

  async function findById(userId: string): Promise<AdminProfile | null> {
    const [row] = await db
      .select(profileColumns)
      .from(users)
      .leftJoin(roles, eq(users.roleId, roles.id))
      .leftJoin(customers, eq(users.customerId, customers.id))
      .where(eq(users.id, userId))
      .limit(1);
    return row ? toAdminProfile(row) : null;
  }

  return {
    findById,

    /**
     * Updates the signed-in user's own profile. The email is not a field here: it cannot change.
     * A new image (checked by content, decoded and encoded anew) replaces the old one, whose file is removed.
     */
    async update(
      userId: string,
      fields: ProfileUpdateFields,
      image: Buffer | undefined,
      actor: HistoryActor,
    ): Promise<AdminProfile> {
      const [current] = await db
        .select({ profileImage: users.profileImage })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!current) throw new NotFoundError('User not found');
      const [clash] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.userName}) = ${fields.userName.toLowerCase()}`, ne(users.id, userId)))
        .limit(1);
      if (clash) throw new ConflictError(accountMessages.userNameTaken);

      let newKey: string | null = null;
      let profileImage = current.profileImage;
      if (image) {
        const clean = await cleanProfileImage(image);
        newKey = storageKey(avatarPrefix, clean.ext);
        await needStorage().put(newKey, Readable.from([clean.bytes]), { contentType: clean.contentType });
        profileImage = apiPaths.profileImage(newKey.slice(avatarPrefix.length + 1));
      }
      try {
        await withActor(db, actor, (tx) =>
          tx
            .update(users)
            .set({
              firstName: fields.firstName,
              lastName: fields.lastName,
              userName: fields.userName,
              phone: fields.phone,
              profileImage,
              updatedAt: now(),
            })
            .where(eq(users.id, userId)),
        );
      } catch (error) {
        if (newKey) await needStorage().delete(newKey);
        if (isUniqueViolation(error)) throw new ConflictError(accountMessages.userNameTaken);
        throw error;
      }
      const oldKey = newKey ? avatarKeyOf(current.profileImage) : null;
      if (oldKey) {
        await needStorage()
          .delete(oldKey)
          .catch((error: unknown) =>
            log?.warn({ err: error, key: oldKey }, 'could not remove the old profile image'),
          );
      }
      return (await findById(userId))!;
    },

    /** The stored avatar file for a name from a profileImage URL, or null. */
    async image(name: string) {
      if (!avatarName.test(name)) return null;
      const found = await needStorage().get(`${avatarPrefix}/${name}`);
      return found ? { ...found, contentType: name.endsWith('.png') ? 'image/png' : 'image/jpeg' } : null;
    },
  };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
export type ProfileService = ReturnType<typeof createProfileService>;
