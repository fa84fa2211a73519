import type { Queryable } from '../db/database.js';
import { type ReadOptions, withRowLock } from '../db/lock.js';

export interface Group {
  id: number;
  name: string;
  description: string | null;
  mappingsSSO: string[];
  rootRole: number | null;
  createdBy: string | null;
  createdAt: Date;
}

interface GroupRecord {
  id: number;
  name: string;
  description: string | null;
  mappings_sso: string[];
  root_role_id: number | null;
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = 'id, name, description, mappings_sso, root_role_id, created_by, created_at';

function toGroup(r: GroupRecord): Group {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    mappingsSSO: r.mappings_sso,
    rootRole: r.root_role_id,
    createdBy: r.created_by,
    createdAt: r.created_at,
  };
}

export async function findGroup(
  db: Queryable,
  id: number,
  { lock }: ReadOptions = {},
): Promise<Group | null> {
  const { rows } = await db.query<GroupRecord>(
    withRowLock(`SELECT ${COLUMNS} FROM groups WHERE id = $1`, lock),
    [id],
  );
  return rows[0] ? toGroup(rows[0]) : null;
}

export async function findGroupByName(db: Queryable, name: string): Promise<Group | null> {
  const { rows } = await db.query<GroupRecord>(`SELECT ${COLUMNS} FROM groups WHERE name = $1`, [name]);
  return rows[0] ? toGroup(rows[0]) : null;
}

export async function listGroups(db: Queryable): Promise<Group[]> {
  const { rows } = await db.query<GroupRecord>(`SELECT ${COLUMNS} FROM groups ORDER BY name, id`);
  return rows.map(toGroup);
}

/** A member of a group, by user id (users/ knows the rest). */
export interface Membership {
  groupId: number;
  userId: number;
  joinedAt: Date;
  createdBy: string | null;
}

/** The members of the given groups (all groups when `groupIds` is null), earliest first. */
export async function listMemberships(db: Queryable, groupIds: number[] | null): Promise<Membership[]> {
  const { rows } = await db.query<{
    group_id: number;
    user_id: number;
    joined_at: Date;
    added_by: string | null;
  }>(
    `SELECT group_id, user_id, joined_at, created_by AS added_by FROM group_user
      WHERE $1::int[] IS NULL OR group_id = ANY($1::int[])
      ORDER BY group_id, joined_at, user_id`,
    [groupIds],
  );
  return rows.map((r) => ({
    groupId: r.group_id,
    userId: r.user_id,
    joinedAt: r.joined_at,
    createdBy: r.added_by,
  }));
}

export interface GroupFields {
  name: string;
  description: string | null;
  mappingsSSO: string[];
  rootRole: number | null;
}

export async function insertGroup(db: Queryable, g: GroupFields, createdBy: string): Promise<Group> {
  const { rows } = await db.query<GroupRecord>(
    `INSERT INTO groups (name, description, mappings_sso, root_role_id, created_by)
     VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING ${COLUMNS}`,
    [g.name, g.description, JSON.stringify(g.mappingsSSO), g.rootRole, createdBy],
  );
  return toGroup(rows[0]!);
}

export async function updateGroupRow(db: Queryable, id: number, g: GroupFields): Promise<Group> {
  const { rows } = await db.query<GroupRecord>(
    `UPDATE groups SET name = $2, description = $3, mappings_sso = $4::jsonb, root_role_id = $5
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, g.name, g.description, JSON.stringify(g.mappingsSSO), g.rootRole],
  );
  return toGroup(rows[0]!);
}

/**
 * Membership becomes exactly `userIds`: others leave, newcomers join now, and those who stay keep
 * the date they joined and who added them.
 */
export async function setMembers(
  db: Queryable,
  groupId: number,
  userIds: number[],
  addedBy: string,
): Promise<void> {
  await db.query('DELETE FROM group_user WHERE group_id = $1 AND NOT (user_id = ANY($2::int[]))', [
    groupId,
    userIds,
  ]);
  if (userIds.length === 0) return;
  await db.query(
    `INSERT INTO group_user (group_id, user_id, created_by)
     SELECT $1, u, $3 FROM unnest($2::int[]) AS u
     ON CONFLICT (group_id, user_id) DO NOTHING`,
    [groupId, userIds, addedBy],
  );
}

export async function deleteGroupRow(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM groups WHERE id = $1', [id]);
}

/** The groups among `ids` that exist. */
export async function existingGroupIds(db: Queryable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: number }>('SELECT id FROM groups WHERE id = ANY($1::int[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/** The groups of those ids that exist, by id. */
export async function findGroups(db: Queryable, ids: readonly number[]): Promise<Group[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<GroupRecord>(
    `SELECT ${COLUMNS} FROM groups WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  return rows.map(toGroup);
}

/** The groups a user is a member of, by name. */
export async function groupsOfUser(db: Queryable, userId: number): Promise<Group[]> {
  const { rows } = await db.query<GroupRecord>(
    `SELECT g.id, g.name, g.description, g.mappings_sso, g.root_role_id, g.created_by, g.created_at
       FROM groups g
       JOIN group_user gu ON gu.group_id = g.id
      WHERE gu.user_id = $1 ORDER BY g.name, g.id`,
    [userId],
  );
  return rows.map(toGroup);
}
