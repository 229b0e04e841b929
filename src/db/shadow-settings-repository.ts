/**
 * shadow_settings: sample rates per tenant and per model. Read on the build stage's hot path, so reads are
 * served from a short per-process cache: a rate change takes effect within SETTINGS_CACHE_TTL_MS everywhere.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { VettedError } from '../errors.ts';
import type { ShadowSetting } from '../shadow/sampling.ts';
import type { Db } from './client.ts';
import { shadowSettings, type ShadowSettingRow } from './schema/index.ts';
import { assertTenantId } from '../tenants.ts';

/** How stale a process's view of the settings may be. */
export const SETTINGS_CACHE_TTL_MS = 10_000;

const MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9._-]+)?$/;

export interface ShadowSettingInput {
  tenantId: string;
  /** `owner/name` or `owner/name:version`; omit (or null) for the tenant-wide rate. */
  model?: string | null;
  sampleRate: number;
  updatedBy: string;
}

export type ShadowSettingsRepository = ReturnType<typeof createShadowSettingsRepository>;

export function createShadowSettingsRepository(db: Db, options: { ttlMs?: number } = {}) {
  const cache = new LRUCache<string, ShadowSetting[]>({ max: 10_000, ttl: options.ttlMs ?? SETTINGS_CACHE_TTL_MS });

  return {
    /** The tenant's settings, at most SETTINGS_CACHE_TTL_MS old. */
    async forTenant(tenantId: string): Promise<ShadowSetting[]> {
      const cached = cache.get(tenantId);
      if (cached) return cached;
      const rows = await db
        .select({ model: shadowSettings.model, sampleRate: shadowSettings.sampleRate })
        .from(shadowSettings)
        .where(eq(shadowSettings.tenantId, tenantId));
      cache.set(tenantId, rows);
      return rows;
    },

    /**
     * Sets (or replaces) one rate.
     * @throws VettedError INVALID_REQUEST naming `tenant`, `model` or `rate` when one is malformed.
     */
    async upsert(input: ShadowSettingInput): Promise<ShadowSettingRow> {
      const model = checkSettingInput(input);
      const values = { tenantId: input.tenantId, model, sampleRate: input.sampleRate, updatedBy: input.updatedBy, updatedAt: new Date() };
      const set = { sampleRate: values.sampleRate, updatedBy: values.updatedBy, updatedAt: values.updatedAt };
      const target = model === null ? [shadowSettings.tenantId] : [shadowSettings.tenantId, shadowSettings.model];
      const targetWhere = model === null ? sql`${shadowSettings.model} is null` : sql`${shadowSettings.model} is not null`;
      const [row] = await db.insert(shadowSettings).values(values).onConflictDoUpdate({ target, targetWhere, set }).returning();
      cache.delete(input.tenantId);
      if (!row) throw new VettedError('INTERNAL', 'shadow_settings upsert returned nothing');
      return row;
    },

    /** Removes one rate; true when there was one. */
    async remove(tenantId: string, model: string | null): Promise<boolean> {
      const rows = await db
        .delete(shadowSettings)
        .where(and(eq(shadowSettings.tenantId, tenantId), model === null ? isNull(shadowSettings.model) : eq(shadowSettings.model, model)))
        .returning({ tenantId: shadowSettings.tenantId });
      cache.delete(tenantId);
      return rows.length > 0;
    },

    /** Every setting, or one tenant's, tenant then model (tenant-wide first). */
    async list(tenantId?: string): Promise<ShadowSettingRow[]> {
      return db
        .select()
        .from(shadowSettings)
        .where(tenantId ? eq(shadowSettings.tenantId, tenantId) : undefined)
        .orderBy(asc(shadowSettings.tenantId), sql`${shadowSettings.model} nulls first`);
    },
  };
}

/** @returns the model, normalised to null for the tenant-wide rate. */
function checkSettingInput(input: ShadowSettingInput): string | null {
  assertTenantId(input.tenantId);
  const model = input.model ?? null;
  if (model !== null && !MODEL_PATTERN.test(model)) {
    throw new VettedError('INVALID_REQUEST', `model "${model}" must look like owner/name or owner/name:version`, { field: 'model' });
  }
  if (!Number.isFinite(input.sampleRate) || input.sampleRate < 0 || input.sampleRate > 1) {
    throw new VettedError('INVALID_REQUEST', `rate ${String(input.sampleRate)} must be a number from 0 to 1 (0.25 shadows a quarter of the runs)`, { field: 'rate' });
  }
  return model;
}
