/**
 * A model's JSON Schema compiled by AJV, once per schema hash. Compiling costs milliseconds and validating
 * costs about a microsecond, so compiled validators are kept in a bounded LRU; an evicted one is also removed
 * from AJV, whose own cache would otherwise grow with every model ever seen.
 *
 * The schema hash is trusted as the identity of the schema: two ModelSchemas with the same hash are the same
 * schema (the extractor computes it from the content).
 */
import type { Ajv, ValidateFunction } from 'ajv';
import { VettedError } from '../../errors.ts';
import type { FieldSpec, ModelSchema } from '../../generated/contracts.ts';
import { createPayloadAjv, createPublishedSchemaAjv } from '../../schema/ajv.ts';
import { LRUCache } from 'lru-cache';

/** How many compiled schemas a process keeps. A worker sees far fewer models than this in practice. */
export const SCHEMA_CACHE_SIZE = 500;

export interface CompiledSchema {
  readonly schemaHash: string;
  readonly validate: ValidateFunction;
  /**
   * The model's published input schema (ModelSchema.publishedSchema) compiled, for the final guard; undefined
   * for a model known only by its example, or whose published schema AJV cannot compile (publishedError says why).
   */
  readonly published: ValidateFunction | undefined;
  readonly publishedError?: string;
  /** FieldSpec by field name, for messages and suggestions. */
  readonly fields: ReadonlyMap<string, FieldSpec>;
}

export class CompiledSchemaCache {
  readonly #ajv: Ajv;
  readonly #publishedAjv: Ajv;
  readonly #cache: LRUCache<string, CompiledSchema & { readonly source: object; readonly publishedSource?: object }>;
  #compiles = 0;

  constructor(maxEntries = SCHEMA_CACHE_SIZE) {
    this.#ajv = createPayloadAjv();
    this.#publishedAjv = createPublishedSchemaAjv();
    this.#cache = new LRUCache({
      max: maxEntries,
      dispose: (compiled) => {
        this.#ajv.removeSchema(compiled.source);
        if (compiled.publishedSource) this.#publishedAjv.removeSchema(compiled.publishedSource);
      },
    });
  }

  /** How many schemas this cache has compiled since it was made (hits do not count). */
  get compiles(): number {
    return this.#compiles;
  }

  get size(): number {
    return this.#cache.size;
  }

  /** The compiled validator for this schema; compiles on the first sight of its hash. */
  compiledFor(schema: ModelSchema): CompiledSchema {
    const cached = this.#cache.get(schema.schemaHash);
    if (cached) return cached;
    // A copy without $id: AJV refuses a second schema with the same $id, and extracted schemas are
    // self-contained (the extractor resolves every $ref), so the id carries nothing validation needs.
    const { $id: _id, ...source } = schema.jsonSchema;
    let validate: ValidateFunction;
    try {
      validate = this.#ajv.compile(source);
    } catch (error) {
      throw new VettedError(
        'SCHEMA_UNSUPPORTED',
        `The input schema of ${schema.model ?? 'this model'} cannot be compiled: ${(error as Error).message}`,
        { details: { schemaHash: schema.schemaHash }, cause: error },
      );
    }
    this.#compiles += 1;
    const published = this.#compilePublished(schema);
    const compiled = {
      schemaHash: schema.schemaHash,
      validate,
      fields: new Map(schema.fields.map((spec) => [spec.name, spec])),
      source,
      ...published,
    };
    this.#cache.set(schema.schemaHash, compiled);
    return compiled;
  }

  /**
   * The published schema is the model author's, in a looser dialect: one AJV cannot compile (a `$ref` to a
   * document we do not have) leaves the guard off for that model, saying why, rather than refusing every run.
   */
  #compilePublished(schema: ModelSchema): { published: ValidateFunction | undefined; publishedSource?: object; publishedError?: string } {
    if (!schema.publishedSchema) return { published: undefined };
    const { $id: _id, ...publishedSource } = schema.publishedSchema;
    try {
      return { published: this.#publishedAjv.compile(publishedSource), publishedSource };
    } catch (error) {
      return { published: undefined, publishedError: (error as Error).message };
    }
  }
}
