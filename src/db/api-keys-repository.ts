/** API keys in PostgreSQL: created, verified, listed, revoked. The rules are in src/auth/api-keys.ts. */
import { and, eq, sql } from 'drizzle-orm';
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

    /**
     * Revokes a key of the tenant unless it is the tenant's last admin key in force, in one statement: the
     * tenant's admin keys in force are locked in id order first, so of two revocations racing for the last two
     * admin keys, the second waits, re-reads the first's revocation, and keeps its key. 'revoked' when it was
     * revoked now, 'last-admin' when refused, 'unchanged' when already revoked, 'missing' when the tenant has no such key.
     */
    async revokeKeepingAnAdmin(id: string, tenantId: string): Promise<'revoked' | 'last-admin' | 'unchanged' | 'missing'> {
      const result = await db.execute<{ id: string }>(sql`
        WITH admins AS (
          SELECT id FROM api_keys
           WHERE tenant_id = ${tenantId} AND role = 'admin' AND revoked_at IS NULL
           ORDER BY id FOR UPDATE
        )
        UPDATE api_keys SET revoked_at = now()
         WHERE id = ${id} AND tenant_id = ${tenantId} AND revoked_at IS NULL
           AND (role <> 'admin' OR EXISTS (SELECT 1 FROM admins WHERE admins.id <> ${id}))
        RETURNING id`);
      if (result.rows.length > 0) return 'revoked';
      const [row] = await db.select({ role: apiKeys.role, revokedAt: apiKeys.revokedAt }).from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId)));
      if (!row) return 'missing';
      return row.revokedAt ? 'unchanged' : 'last-admin';
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
