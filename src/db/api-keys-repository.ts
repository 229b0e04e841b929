/** API keys in PostgreSQL: created, verified, listed, revoked. The rules are in src/auth/api-keys.ts. */
import { and, eq, isNull, ne } from 'drizzle-orm';
import { assertKeyMatches, hashSecret, mintKey, parseKey, principalFor, type NewApiKey, type Principal } from '../auth/api-keys.ts';
import { VettedError } from '../errors.ts';
import type { Db } from './client.ts';
import { apiKeys, reviewers, type ApiKeyRow } from './schema/index.ts';

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;

export function createApiKeysRepository(db: Db) {
  return {
    /** Stores a new key and returns it whole: the only time the secret is seen. */
    async create(input: NewApiKey): Promise<{ key: string; row: ApiKeyRow }> {
      const { id, secret } = mintKey(input);
      if (input.reviewerId !== undefined) await assertSameTenant(db, input.reviewerId, input.tenantId);
      const [row] = await db
        .insert(apiKeys)
        .values({ id, tenantId: input.tenantId, role: input.role, permissions: input.permissions ?? [], secretHash: hashSecret(secret), label: input.label ?? null, reviewerId: input.reviewerId ?? null })
        .returning();
      if (!row) throw new VettedError('INTERNAL', 'api key insert returned nothing');
      return { key: `vt_${id}.${secret}`, row };
    },

    /** @throws VettedError UNAUTHORIZED for a malformed, unknown, revoked or wrong key. */
    async verify(token: string): Promise<Principal> {
      const { id, secret } = parseKey(token);
      const [found] = await db
        .select({ key: apiKeys, reviewer: { id: reviewers.id, name: reviewers.name, team: reviewers.team } })
        .from(apiKeys)
        .leftJoin(reviewers, eq(reviewers.id, apiKeys.reviewerId))
        .where(eq(apiKeys.id, id));
      assertKeyMatches(found?.key, secret);
      return principalFor(found.key, found.reviewer ?? undefined);
    },

    /** Every key, or one tenant's. */
    async list(tenantId?: string): Promise<ApiKeyRow[]> {
      return db.select().from(apiKeys).where(tenantId === undefined ? undefined : eq(apiKeys.tenantId, tenantId)).orderBy(apiKeys.createdAt);
    },

    async get(id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
      return row;
    },

    /** The tenant's admin keys still in force, other than `exceptId`. */
    async countOtherActiveAdmins(tenantId: string, exceptId: string): Promise<number> {
      const rows = await db
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.role, 'admin'), isNull(apiKeys.revokedAt), ne(apiKeys.id, exceptId)));
      return rows.length;
    },

    /** Revokes a key (of `tenantId` only, when given); false when there is no such key. */
    async revoke(id: string, tenantId?: string): Promise<boolean> {
      const scope = tenantId === undefined ? eq(apiKeys.id, id) : and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId));
      const rows = await db.update(apiKeys).set({ revokedAt: new Date() }).where(scope).returning({ id: apiKeys.id });
      return rows.length > 0;
    },
  };
}

/** A person's key acts for that person's tenant only. */
async function assertSameTenant(db: Db, reviewerId: string, tenantId: string): Promise<void> {
  const [reviewer] = await db.select({ tenantId: reviewers.tenantId }).from(reviewers).where(eq(reviewers.id, reviewerId));
  if (!reviewer) throw new VettedError('INVALID_REQUEST', `No reviewer ${reviewerId}; add one with \`vetted reviewers add\``, { field: 'reviewer' });
  if (reviewer.tenantId !== tenantId) throw new VettedError('INVALID_REQUEST', `Reviewer ${reviewerId} belongs to tenant ${reviewer.tenantId}, not ${tenantId}`, { field: 'tenant' });
}
