/** Reviewers: the people who decide, with a name, a role and a team. Their keys are API keys with a reviewer id. */
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { ROLES } from '../auth/api-keys.ts';
import { VettedError } from '../errors.ts';
import { assertTenantId } from '../tenants.ts';
import type { Db } from './client.ts';
import { reviewers, type Role, type ReviewerRow } from './schema/index.ts';

export interface NewReviewer {
  tenantId: string;
  name: string;
  role: Role;
  team?: string;
}

const TEAM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export type ReviewersRepository = ReturnType<typeof createReviewersRepository>;

export function createReviewersRepository(db: Db) {
  return {
    /** @throws VettedError INVALID_REQUEST naming `tenant`, `name`, `role` or `team`. */
    async create(input: NewReviewer): Promise<ReviewerRow> {
      assertTenantId(input.tenantId);
      const name = input.name.trim();
      if (name.length === 0 || name.length > 200) throw new VettedError('INVALID_REQUEST', 'name must be 1 to 200 characters', { field: 'name' });
      if (!ROLES.includes(input.role)) throw new VettedError('INVALID_REQUEST', `role must be one of ${ROLES.join(', ')}`, { field: 'role' });
      if (input.team !== undefined && !TEAM.test(input.team)) throw new VettedError('INVALID_REQUEST', 'team must be 1 to 64 letters, digits, dots, dashes or underscores', { field: 'team' });
      const id = `rv_${randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12)}`;
      const [row] = await db.insert(reviewers).values({ id, tenantId: input.tenantId, name, role: input.role, team: input.team ?? null }).returning();
      if (!row) throw new VettedError('INTERNAL', 'reviewer insert returned nothing');
      return row;
    },

    async get(id: string): Promise<ReviewerRow | undefined> {
      const [row] = await db.select().from(reviewers).where(eq(reviewers.id, id));
      return row;
    },

    async list(tenantId?: string): Promise<ReviewerRow[]> {
      return db.select().from(reviewers).where(tenantId === undefined ? undefined : eq(reviewers.tenantId, tenantId)).orderBy(asc(reviewers.tenantId), asc(reviewers.name));
    },
  };
}
