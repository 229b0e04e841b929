/**
 * The CatalogStore port: extracted model schemas (immutable per key), their quarantined example values, and
 * the catalog references (`owner/name[:version]`) each tenant resolves to a key. PostgreSQL implements it in
 * production (src/db/models-repository.ts); memory-catalog.ts is the in-process twin for dry runs and replay.
 */
import type { ModelSchema } from '../generated/contracts.ts';
import type { ExampleQuarantine } from '../stages/example-quarantine.ts';

/** Catalog entries registered with this tenant id are visible to every tenant. */
export const SHARED_TENANT = '*';

export interface CatalogEntry {
  ref: string;
  tenantId: string;
  schemaKey: string;
  model: string | null;
  version: string | null;
  /** The provider a model read from a provider's document names (fal, openai, anthropic); null: the default provider. */
  provider: string | null;
  fields: number;
  createdAt: Date;
}

/** A catalog reference resolved to its schema. */
export interface CatalogRef {
  tenantId: string;
  ref: string;
  schemaKey: string;
}

export interface CatalogStore {
  getSchema(schemaKey: string): Promise<ModelSchema | undefined>;
  /** Example values for the leak firewall and shadow mode. Never call this on a path that feeds a builder. */
  getQuarantine(schemaKey: string): Promise<ExampleQuarantine>;
  /** Stores an extraction result under its key; a key already stored is left as it is (same content). */
  saveExtraction(schemaKey: string, modelSchema: ModelSchema, quarantine: ExampleQuarantine): Promise<void>;
  /** Registers (or re-points) catalog references to an extracted schema. */
  registerModel(input: { tenantId: string; refs: string[]; schemaKey: string; source: Record<string, unknown> }): Promise<void>;
  /** Resolves `owner/name` or `owner/name:version` for a tenant: its own entry first, then a shared one. */
  resolveRef(tenantId: string, ref: string): Promise<CatalogRef | undefined>;
  /** The source a catalog reference was registered with (re-extracted after an extractor upgrade). */
  getRegisteredSource(entry: CatalogRef): Promise<Record<string, unknown> | undefined>;
  /** Moves a reference from one schema key to another, only if it still points at `entry.schemaKey`. */
  repointRef(entry: CatalogRef, schemaKey: string): Promise<void>;
  /** What a tenant sees (its own entries and the shared ones); every tenant's entries without one. */
  listCatalog(tenantId?: string): Promise<CatalogEntry[]>;
}
