/**
 * Every repair the extractor makes is recorded here, and every refusal is raised through here, so a
 * reader can see in one file what "never guess silently" means in practice.
 *
 * Warning messages name fields, keywords and types, never values: a dropped default or a coerced enum
 * member could be an example value, and warnings travel inside the ModelSchema.
 */
import { VettedError } from '../../errors.ts';
import type { ExtractionWarning } from '../../generated/contracts.ts';

/** The closed set of warning codes; consumers may switch on them. */
export type WarningCode =
  | 'bound_converted'
  | 'default_dropped'
  | 'empty_any_of'
  | 'enum_coerced'
  | 'enum_deduplicated'
  | 'example_extra_key'
  | 'example_quarantined'
  | 'example_redacted'
  | 'format_converted'
  | 'format_dropped'
  | 'keyword_dropped'
  | 'required_unknown'
  | 'schema_missing'
  | 'unsatisfiable_field'
  | 'untyped_field';

/** Collects warnings in the order they were found, one per (path, code, message). */
export class WarningList {
  readonly #items: ExtractionWarning[] = [];
  readonly #seen = new Set<string>();

  add(path: string, code: WarningCode, message: string): void {
    const key = `${path}\u0000${code}\u0000${message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#items.push({ path, code, message });
  }

  toArray(): ExtractionWarning[] {
    return this.#items.map((item) => ({ ...item }));
  }
}

/**
 * SCHEMA_UNSUPPORTED for a construct Vetted cannot express faithfully. The message names the construct
 * and the property; `field` is the property path and `details.construct` the construct, for machines.
 */
export function unsupported(construct: string, path: string, reason?: string): VettedError {
  const where = path === '' ? 'the input object' : `property "${path}"`;
  const why = reason === undefined ? '' : `: ${reason}`;
  return new VettedError('SCHEMA_UNSUPPORTED', `Unsupported schema construct "${construct}" in ${where}${why}`, {
    field: path === '' ? 'Input' : path,
    details: { construct },
  });
}

/** MODEL_SOURCE_INVALID naming the missing or malformed field of the source. */
export function invalidSource(field: string, message: string): VettedError {
  return new VettedError('MODEL_SOURCE_INVALID', message, { field });
}

/**
 * Dotted property path: `width`, `images[]`, `config.size`; '' is the input object itself. Warnings use it as
 * is; errors name the input object `Input`, since an empty `field` would name nothing.
 */
export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

export function itemsPath(parent: string): string {
  return `${parent}[]`;
}
