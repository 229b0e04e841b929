/**
 * Which payload fields a view of a run must mask besides the secret-looking names maskForView knows: a
 * model's inputs whose role is `secret` (`x-cog-secret`, `writeOnly`, `format: password`) under any name.
 *
 * maskAnswer is the one masking every answer goes through (the HTTP API's JSON and event streams, the MCP
 * tools): it finds the runs an answer shows by their ids, so a route or tool that forgets to say which runs
 * it shows still has their models' secret inputs masked (a decided review's `edits` included).
 */
import type { ModelSchema } from '../generated/contracts.ts';
import { maskForView } from '../observability/redact.ts';
import type { CatalogStore } from './catalog-store.ts';

/** The names of a schema's secret-role inputs. */
export function secretFieldNames(schema: ModelSchema | undefined): string[] {
  return (schema?.fields ?? []).filter((field) => field.role === 'secret').map((field) => field.name);
}

/** The secret-role inputs of the models these runs used (schemas are cached in-process by the catalog). */
export async function secretFieldsOf(models: Pick<CatalogStore, 'getSchema'>, rows: readonly { schemaKey: string | null }[]): Promise<Set<string>> {
  const keys = [...new Set(rows.map((row) => row.schemaKey).filter((key): key is string => key !== null))];
  const schemas = await Promise.all(keys.map((key) => models.getSchema(key)));
  return new Set(schemas.flatMap(secretFieldNames));
}

/** What maskAnswer reads: the catalog's schemas and the schema key of each run an answer names. */
export interface SecretFieldSources {
  models: Pick<CatalogStore, 'getSchema'>;
  /** The schema keys of these runs of the tenant (runs of other tenants, or unknown ids, are left out). */
  schemaKeysOfRuns(tenantId: string, runIds: readonly string[]): Promise<{ schemaKey: string | null }[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Keys whose values name a run in every view (a run's own `id`, a review's or an event's `runId`). */
const RUN_ID_KEYS: ReadonlySet<string> = new Set(['id', 'runId']);

/** The run ids an answer names (uuid values under `id` or `runId`, at any depth). */
export function runIdsIn(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (inner: unknown, depth: number): void => {
    if (inner === null || typeof inner !== 'object' || depth > 32) return;
    if (Array.isArray(inner)) {
      for (const item of inner) walk(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(inner)) {
      if (typeof item === 'string') {
        if (RUN_ID_KEYS.has(key) && UUID.test(item)) found.add(item.toLowerCase());
      } else walk(item, depth + 1);
    }
  };
  walk(value, 0);
  return [...found];
}

/** A run a caller already holds: its schema key says which inputs to mask; with its id, it is not read again. */
export interface HeldRun {
  id?: string;
  schemaKey: string | null;
}

/**
 * The answer as it may leave the server: maskForView with the secret-role inputs of every run it names, and of
 * `rows` (runs the caller already holds). Only the named runs the caller does not hold are looked up, so an
 * answer about the runs a route just read or moved costs no second read. Without a tenant (an unauthenticated
 * answer) only `rows` count.
 */
export async function maskAnswer<T>(value: T, sources: SecretFieldSources, tenantId: string | undefined, rows: readonly HeldRun[] = [], known: Iterable<string> = []): Promise<T> {
  const held = new Set(rows.flatMap((row) => (row.id ? [row.id.toLowerCase()] : [])));
  const ids = tenantId === undefined ? [] : runIdsIn(value).filter((id) => !held.has(id));
  const named = ids.length === 0 ? [] : await sources.schemaKeysOfRuns(tenantId!, ids);
  const fields = await secretFieldsOf(sources.models, [...rows, ...named]);
  for (const name of known) fields.add(name);
  return maskForView(value, fields);
}
