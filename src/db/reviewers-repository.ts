/** Reviewers: the people who decide, with a name, a role and a team. Their keys are API keys with a reviewer id. */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { ROLES } from '../auth/api-keys.ts';
import type { Removal } from '../auth/reviewer-admin.ts';
import { VettedError } from '../errors.ts';
import { assertTenantId } from '../tenants.ts';
import type { Db } from './client.ts';
import { apiKeys, reviewers, type Role, type ReviewerRow } from './schema/index.ts';

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

    /** Marks the tenant's reviewer (un)available for auto-assignment; undefined when the tenant has no such (present) reviewer. */
    async setAvailable(tenantId: string, id: string, available: boolean): Promise<ReviewerRow | undefined> {
      const [row] = await db.update(reviewers).set({ available }).where(and(eq(reviewers.tenantId, tenantId), eq(reviewers.id, id), isNull(reviewers.removedAt))).returning();
      return row;
    },

    /** The people of one tenant (or of every tenant), by name; removed people are not listed. */
    async list(tenantId?: string): Promise<ReviewerRow[]> {
      const present = isNull(reviewers.removedAt);
      return db.select().from(reviewers).where(tenantId === undefined ? present : and(eq(reviewers.tenantId, tenantId), present)).orderBy(asc(reviewers.tenantId), asc(reviewers.name));
    },

    /**
     * Removes the tenant's person in one transaction: their keys are revoked, their Slack id and email cleared
     * (nothing reaches them or is decided as them again), and the row stays so the audit trail keeps their name.
     * Refused while reviews are assigned to them (reassign those first), and when one of their keys is the
     * tenant's last admin key in force (the tenant's admin keys are locked in id order, as a key revocation does).
     */
    async remove(tenantId: string, id: string): Promise<Removal> {
      return db.transaction(async (tx) => {
        const [person] = await tx.select().from(reviewers).where(and(eq(reviewers.tenantId, tenantId), eq(reviewers.id, id), isNull(reviewers.removedAt))).for('update');
        if (!person) return { kind: 'missing' };
        const assigned = await tx.execute<{ n: number }>(sql`
          select count(*)::int as n from runs where tenant_id = ${tenantId} and assigned_to = ${id} and pending_review_id is not null`);
        const reviews = Number(assigned.rows[0]?.n ?? 0);
        if (reviews > 0) return { kind: 'assigned', reviews };
        const admins = await tx.execute<{ id: string; reviewer_id: string | null }>(sql`
          select id, reviewer_id from api_keys where tenant_id = ${tenantId} and role = 'admin' and revoked_at is null order by id for update`);
        const theirs = admins.rows.filter((key) => key.reviewer_id === id);
        if (theirs.length > 0 && theirs.length === admins.rows.length) return { kind: 'last-admin', keyId: theirs[0]!.id };
        const revoked = await tx.update(apiKeys).set({ revokedAt: new Date() }).where(and(eq(apiKeys.reviewerId, id), isNull(apiKeys.revokedAt))).returning({ id: apiKeys.id });
        const [row] = await tx.update(reviewers).set({ removedAt: new Date(), available: false, slackUserId: null, email: null }).where(eq(reviewers.id, id)).returning();
        return { kind: 'removed', row: row!, revokedKeys: revoked.map((key) => key.id) };
      });
    },
  };
}
