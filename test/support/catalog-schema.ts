/** One public catalog model by owner/name: its entry (for dry-run) and its extracted ModelSchema (for builders). */
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { catalogModelName, loadReplicateCatalog } from './replicate-catalog.ts';

export function catalogEntry(name: string): Record<string, unknown> {
  const model = loadReplicateCatalog().find((entry) => catalogModelName(entry) === name);
  if (!model) throw new Error(`${name} is not in the public catalog`);
  return model;
}

export function catalogSchema(name: string): ModelSchema {
  return extractModelSchema(catalogEntry(name)).modelSchema;
}
