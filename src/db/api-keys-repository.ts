/** API keys in PostgreSQL: created, verified, listed, revoked. The rules are in src/auth/api-keys.ts. */
import { eq } from 'drizzle-orm';
import { assertKeyMatches, hashSecret, mintKey, parseKey, principalFor, type NewApiKey, type Principal } from '../auth/api-keys.ts';
import { VettedError } from '../errors.ts';
import type { Db } from './client.ts';
import { apiKeys, type ApiKeyRow } from './schema/index.ts';

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;

export function createApiKeysRepository(db: Db) {
  return {
    /** Stores a new key and returns it whole: the only time the secret is seen. */
    async create(input: NewApiKey): Promise<{ key: string; row: ApiKeyRow }> {
      const { id, secret } = mintKey(input);
      const [row] = await db
        .insert(apiKeys)
        .values({ id, tenantId: input.tenantId, role: input.role, permissions: input.permissions ?? [], secretHash: hashSecret(secret), label: input.label ?? null })
        .returning();
      if (!row) throw new VettedError('INTERNAL', 'api key insert returned nothing');
      return { key: `vt_${id}.${secret}`, row };
    },

    /** @throws VettedError UNAUTHORIZED for a malformed, unknown, revoked or wrong key. */
    async verify(token: string): Promise<Principal> {
      const { id, secret } = parseKey(token);
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
      assertKeyMatches(row, secret);
      return principalFor(row);
    },

    async list(): Promise<ApiKeyRow[]> {
      return db.select().from(apiKeys).orderBy(apiKeys.createdAt);
    },

    async revoke(id: string): Promise<boolean> {
      const rows = await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id)).returning({ id: apiKeys.id });
      return rows.length > 0;
    },
  };
}
