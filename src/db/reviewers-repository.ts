/** Reviewers: the people who decide, with a name, a role and a team. Their keys are API keys with a reviewer id. */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
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
  /** Their Slack user id (`U…` or `W…`). */
  slackUserId?: string;
  email?: string;
}

const TEAM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SLACK_USER = /^[UW][A-Z0-9]{2,20}$/;
const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}$/;

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
      if (input.slackUserId !== undefined && !SLACK_USER.test(input.slackUserId)) throw new VettedError('INVALID_REQUEST', 'slack-user must be a Slack user id such as U024BE7LH', { field: 'slackUser' });
      if (input.email !== undefined && !EMAIL.test(input.email)) throw new VettedError('INVALID_REQUEST', 'email must be an address such as ada@example.com', { field: 'email' });
      const id = `rv_${randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12)}`;
      const values = { id, tenantId: input.tenantId, name, role: input.role, team: input.team ?? null, slackUserId: input.slackUserId ?? null, email: input.email?.toLowerCase() ?? null };
      const [row] = await db.insert(reviewers).values(values).returning().catch((error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code === '23505' || (error as { code?: string }).code === '23505') {
          throw new VettedError('INVALID_REQUEST', `slack-user ${input.slackUserId} is already another reviewer of tenant ${input.tenantId}`, { field: 'slackUser' });
        }
        throw error;
      });
      if (!row) throw new VettedError('INTERNAL', 'reviewer insert returned nothing');
      return row;
    },

    async get(id: string): Promise<ReviewerRow | undefined> {
      const [row] = await db.select().from(reviewers).where(eq(reviewers.id, id));
      return row;
    },

    /** The tenant's reviewer a Slack user is, if any. */
    async findBySlackUser(tenantId: string, slackUserId: string): Promise<ReviewerRow | undefined> {
      const [row] = await db.select().from(reviewers).where(and(eq(reviewers.tenantId, tenantId), eq(reviewers.slackUserId, slackUserId)));
      return row;
    },

    /** The tenant's reviewer with this address (compared without case), if exactly one. */
    async findByEmail(tenantId: string, email: string): Promise<ReviewerRow | undefined> {
      const rows = await db.select().from(reviewers).where(and(eq(reviewers.tenantId, tenantId), eq(reviewers.email, sql`lower(${email})`))).limit(2);
      return rows.length === 1 ? rows[0] : undefined;
    },

    /** Marks the tenant's reviewer (un)available for auto-assignment; undefined when the tenant has no such reviewer. */
    async setAvailable(tenantId: string, id: string, available: boolean): Promise<ReviewerRow | undefined> {
      const [row] = await db.update(reviewers).set({ available }).where(and(eq(reviewers.tenantId, tenantId), eq(reviewers.id, id))).returning();
      return row;
    },

    async list(tenantId?: string): Promise<ReviewerRow[]> {
      return db.select().from(reviewers).where(tenantId === undefined ? undefined : eq(reviewers.tenantId, tenantId)).orderBy(asc(reviewers.tenantId), asc(reviewers.name));
    },
  };
}
