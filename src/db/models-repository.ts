/**
 * The CatalogStore (src/catalog/catalog-store.ts) over PostgreSQL: the model catalog and the extraction cache. ModelSchemas are immutable per key, so a process keeps the
 * ones it has read in memory; PostgreSQL stays the source of truth shared by every worker.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { ModelSchema } from '../generated/contracts.ts';
import { ExampleQuarantine } from '../stages/example-quarantine.ts';
import { SHARED_TENANT, type CatalogEntry, type CatalogRef, type CatalogStore } from '../catalog/catalog-store.ts';
import { createRefCache } from '../catalog/ref-cache.ts';
import type { Db } from './client.ts';
import { modelExamples, models, modelSchemas } from './schema/index.ts';

export interface ModelsRepositoryOptions {
  cacheSize?: number;
  /**
   * Milliseconds on the system's clock, for the resolved references (src/catalog/ref-cache.ts: every run resolves
   * one, so a resolved reference is trusted REF_CACHE_TTL_MS; a re-pointed one reaches other processes within it).
   */
  clock?: { now(): number };
}

export function createModelsRepository(db: Db, options: ModelsRepositoryOptions = {}): CatalogStore {
  const schemaCache = new LRUCache<string, ModelSchema>({ max: options.cacheSize ?? 1000 });
  const quarantineCache = new LRUCache<string, ExampleQuarantine>({ max: options.cacheSize ?? 1000 });
  const refCache = createRefCache(options.clock ? { clock: options.clock } : {});

  return {
    async getSchema(schemaKey: string): Promise<ModelSchema | undefined> {
      const cached = schemaCache.get(schemaKey);
      if (cached) return cached;
      const [row] = await db.select({ modelSchema: modelSchemas.modelSchema }).from(modelSchemas).where(eq(modelSchemas.schemaKey, schemaKey));
      if (row) schemaCache.set(schemaKey, row.modelSchema);
      return row?.modelSchema;
    },

    /** Example values for the leak firewall and shadow mode. Never call this on a path that feeds a builder. */
    async getQuarantine(schemaKey: string): Promise<ExampleQuarantine> {
      const cached = quarantineCache.get(schemaKey);
      if (cached) return cached;
      const [row] = await db.select({ quarantine: modelExamples.quarantine }).from(modelExamples).where(eq(modelExamples.schemaKey, schemaKey));
      const quarantine = ExampleQuarantine.fromStorage(row?.quarantine);
      quarantineCache.set(schemaKey, quarantine);
      return quarantine;
    },

    /** Stores an extraction result under its key; a key already stored is left as it is (same content). */
    async saveExtraction(schemaKey: string, modelSchema: ModelSchema, quarantine: ExampleQuarantine): Promise<void> {
      await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(modelSchemas)
          .values({ schemaKey, model: modelSchema.model, version: modelSchema.version, schemaHash: modelSchema.schemaHash, modelSchema })
          .onConflictDoNothing()
          .returning({ schemaKey: modelSchemas.schemaKey });
        if (inserted.length > 0) {
          await tx.insert(modelExamples).values({ schemaKey, quarantine: quarantine.toStorage() }).onConflictDoNothing();
        }
      });
      schemaCache.set(schemaKey, modelSchema);
      quarantineCache.set(schemaKey, quarantine);
    },

    /** Registers (or re-points) catalog references to an extracted schema. */
    async registerModel(input: { tenantId: string; refs: string[]; schemaKey: string; source: Record<string, unknown> }): Promise<void> {
      const now = new Date();
      for (const ref of input.refs) {
        await db
          .insert(models)
          .values({ tenantId: input.tenantId, ref, schemaKey: input.schemaKey, source: input.source })
          .onConflictDoUpdate({
            target: [models.tenantId, models.ref],
            set: { schemaKey: input.schemaKey, source: input.source, updatedAt: now },
          });
      }
      // After the writes: a resolution under way here may have read the reference before them.
      refCache.forget();
    },

    /** Resolves `owner/name` or `owner/name:version` for a tenant: its own entry first, then a shared one. */
    async resolveRef(tenantId: string, ref: string): Promise<CatalogRef | undefined> {
      return refCache.resolve(tenantId, ref, async () => {
        const [row] = await db
          .select({ tenantId: models.tenantId, ref: models.ref, schemaKey: models.schemaKey })
          .from(models)
          .where(and(eq(models.ref, ref), inArray(models.tenantId, [tenantId, SHARED_TENANT])))
          .orderBy(desc(sql`${models.tenantId} = ${tenantId}`))
          .limit(1);
        return row;
      });
    },

    /** The source a catalog reference was registered with (re-extracted after an extractor upgrade). */
    async getRegisteredSource(entry: CatalogRef): Promise<Record<string, unknown> | undefined> {
      const [row] = await db
        .select({ source: models.source })
        .from(models)
        .where(and(eq(models.tenantId, entry.tenantId), eq(models.ref, entry.ref)));
      return row?.source;
    },

    /** Moves a reference from one schema key to another, only if it still points at `entry.schemaKey`. */
    async repointRef(entry: CatalogRef, schemaKey: string): Promise<void> {
      await db
        .update(models)
        .set({ schemaKey, updatedAt: new Date() })
        .where(and(eq(models.tenantId, entry.tenantId), eq(models.ref, entry.ref), eq(models.schemaKey, entry.schemaKey)));
      refCache.forget();
    },

    /** What a tenant sees (its own entries and the shared ones); every tenant's entries without one. */
    async listCatalog(tenantId?: string): Promise<CatalogEntry[]> {
      const rows = await db
        .select({
          ref: models.ref,
          tenantId: models.tenantId,
          schemaKey: models.schemaKey,
          model: modelSchemas.model,
          version: modelSchemas.version,
          provider: sql<string | null>`${modelSchemas.modelSchema} -> 'provider' ->> 'name'`,
          fields: sql<number>`jsonb_array_length(${modelSchemas.modelSchema} -> 'fields')`,
          createdAt: models.createdAt,
        })
        .from(models)
        .innerJoin(modelSchemas, eq(models.schemaKey, modelSchemas.schemaKey))
        .where(tenantId === undefined ? undefined : inArray(models.tenantId, [tenantId, SHARED_TENANT]))
        .orderBy(models.ref, models.tenantId);
      return rows.map((row) => ({ ...row, fields: Number(row.fields) }));
    },
  };
}
