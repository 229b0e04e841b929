/**
 * The models the simulated Replicate knows: model objects (`owner`, `name`, `latest_version`) and version
 * objects (`id`, `openapi_schema`), read from a directory of model files (default `examples/models`) or added
 * by a test. A version file names no model, so it is served under any `owner/name` that asks for its id.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromPackageRoot } from '../util/package-root.ts';

export type JsonObject = Record<string, unknown>;

/** examples/models in this checkout: the sim ships with the CLI, beside the examples. */
export const DEFAULT_MODELS_DIR = fromPackageRoot('examples', 'models');

interface VersionEntry {
  version: JsonObject;
  /** owner/name, or null for a version file that names no model. */
  model: string | null;
}

export class SimModelCatalog {
  private readonly models = new Map<string, JsonObject>();
  private readonly versions = new Map<string, VersionEntry>();

  /** Loads every `*.json` model or version file in the directory; other files are ignored. */
  loadDirectory(directory: string): void {
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
      const parsed: unknown = JSON.parse(readFileSync(join(directory, file), 'utf8'));
      if (!isObject(parsed)) continue;
      if (typeof parsed.owner === 'string' && typeof parsed.name === 'string') this.addModel(parsed);
      else if (typeof parsed.id === 'string' && Object.hasOwn(parsed, 'openapi_schema')) this.addVersion(null, parsed);
    }
  }

  /** Serves a model object (and its latest_version) under `owner/name`. */
  addModel(model: JsonObject): void {
    const ref = `${String(model.owner)}/${String(model.name)}`;
    this.models.set(ref, model);
    if (isObject(model.latest_version) && typeof model.latest_version.id === 'string') this.addVersion(ref, model.latest_version);
  }

  /** Serves a version object (`openapi_schema` may be null: a schema-less version) for a model, or any. */
  addVersion(model: string | null, version: JsonObject): void {
    if (typeof version.id !== 'string') throw new Error('a version needs a string id');
    this.versions.set(version.id, { version, model });
  }

  model(ref: string): JsonObject | undefined {
    return this.models.get(ref);
  }

  /** The version with this id, if it belongs to `model` (or to no model in particular). */
  version(id: string, model?: string): JsonObject | undefined {
    const entry = this.versions.get(id);
    if (!entry) return undefined;
    return model === undefined || entry.model === null || entry.model === model ? entry.version : undefined;
  }

  /** The model a known version belongs to (null when the version file named none). */
  modelOfVersion(id: string): string | null {
    return this.versions.get(id)?.model ?? null;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
