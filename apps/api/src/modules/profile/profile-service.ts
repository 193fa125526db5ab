import { eq } from 'drizzle-orm';
import type { AdminProfile } from '@app/contract/auth';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema/users.ts';

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
  role: row.roleId ? { _id: row.roleId, roleName: row.roleName!, type: row.roleType! } : null,
});

export function createProfileService({ db }: { db: Db }) {
  return {
    async findById(userId: string): Promise<AdminProfile | null> {
      const [row] = await db
        .select(profileColumns)
        .from(users)
        .leftJoin(roles, eq(users.roleId, roles.id))
        .where(eq(users.id, userId))
        .limit(1);
      return row ? toAdminProfile(row) : null;
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
