/**
 * Which payload fields a view of a run must mask besides the secret-looking names maskForView knows: a
 * model's inputs whose role is `secret` (`x-cog-secret`, `writeOnly`, `format: password`) under any name.
 * Every channel that shows runs (the HTTP API, the MCP tools) asks here, then masks with maskForView.
 */
import type { ModelSchema } from '../generated/contracts.ts';
import type { CatalogStore } from './catalog-store.ts';

/** The names of a schema's secret-role inputs. */
export function secretFieldNames(schema: ModelSchema | undefined): string[] {
  return (schema?.fields ?? []).filter((field) => field.role === 'secret').map((field) => field.name);
}

/** The secret-role inputs of the models these runs used (schemas are cached in-process by the catalog). */
export async function secretFieldsOf(models: CatalogStore, rows: readonly { schemaKey: string | null }[]): Promise<Set<string>> {
  const keys = [...new Set(rows.map((row) => row.schemaKey).filter((key): key is string => key !== null))];
  const schemas = await Promise.all(keys.map((key) => models.getSchema(key)));
  return new Set(schemas.flatMap(secretFieldNames));
}
