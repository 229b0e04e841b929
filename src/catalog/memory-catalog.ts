/**
 * The CatalogStore in memory: the twin of src/db/models-repository.ts for the in-process runner (dry runs,
 * replay, the fast tests). Same resolution rules: a tenant's own entry first, then a shared one.
 */
import type { ModelSchema } from '../generated/contracts.ts';
import { ExampleQuarantine } from '../stages/example-quarantine.ts';
import { SHARED_TENANT, type CatalogEntry, type CatalogRef, type CatalogStore } from './catalog-store.ts';

interface Entry extends CatalogRef {
  source: Record<string, unknown>;
  createdAt: Date;
}

export function createMemoryCatalog(): CatalogStore {
  const schemas = new Map<string, ModelSchema>();
  const quarantines = new Map<string, ExampleQuarantine>();
  const entries = new Map<string, Entry>();
  const keyOf = (tenantId: string, ref: string) => `${tenantId}\u0000${ref}`;

  return {
    async getSchema(schemaKey) {
      return schemas.get(schemaKey);
    },
    async getQuarantine(schemaKey) {
      return quarantines.get(schemaKey) ?? ExampleQuarantine.empty();
    },
    async saveExtraction(schemaKey, modelSchema, quarantine) {
      if (schemas.has(schemaKey)) return;
      schemas.set(schemaKey, modelSchema);
      quarantines.set(schemaKey, quarantine);
    },
    async registerModel({ tenantId, refs, schemaKey, source }) {
      for (const ref of refs) {
        const existing = entries.get(keyOf(tenantId, ref));
        entries.set(keyOf(tenantId, ref), { tenantId, ref, schemaKey, source, createdAt: existing?.createdAt ?? new Date() });
      }
    },
    async resolveRef(tenantId, ref) {
      const entry = entries.get(keyOf(tenantId, ref)) ?? entries.get(keyOf(SHARED_TENANT, ref));
      return entry && { tenantId: entry.tenantId, ref: entry.ref, schemaKey: entry.schemaKey };
    },
    async getRegisteredSource(entry) {
      return entries.get(keyOf(entry.tenantId, entry.ref))?.source;
    },
    async repointRef(entry, schemaKey) {
      const current = entries.get(keyOf(entry.tenantId, entry.ref));
      if (current?.schemaKey === entry.schemaKey) current.schemaKey = schemaKey;
    },
    async listCatalog(tenantId) {
      const visible = [...entries.values()].filter((e) => tenantId === undefined || e.tenantId === tenantId || e.tenantId === SHARED_TENANT);
      return visible
        .sort((a, b) => a.ref.localeCompare(b.ref) || a.tenantId.localeCompare(b.tenantId))
        .map((e): CatalogEntry => {
          const schema = schemas.get(e.schemaKey);
          return { ref: e.ref, tenantId: e.tenantId, schemaKey: e.schemaKey, model: schema?.model ?? null, version: schema?.version ?? null, provider: schema?.provider?.name ?? null, fields: schema?.fields.length ?? 0, createdAt: e.createdAt };
        });
    },
  };
}
