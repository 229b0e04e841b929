/**
 * The public Replicate catalog (the `all-the-public-replicate-models` dev dependency) by owner/name: the corpus
 * names real models, and the bench runs each request against the model's published entry.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let byName: ReadonlyMap<string, Record<string, unknown>> | undefined;

/** Every public model by `owner/name`, parsed once per process (63 MB of JSON). */
export function catalogByName(): ReadonlyMap<string, Record<string, unknown>> {
  if (byName === undefined) {
    // The package exports only an untyped entry that loads with top-level await; the JSON beside it is simpler.
    const entry = createRequire(import.meta.url).resolve('all-the-public-replicate-models');
    const models = JSON.parse(readFileSync(join(dirname(entry), 'models.json'), 'utf8')) as Record<string, unknown>[];
    byName = new Map(models.map((model) => [`${String(model.owner)}/${String(model.name)}`, model]));
  }
  return byName;
}
