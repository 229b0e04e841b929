/**
 * Example values, quarantined. A model's `example_input` / `default_example.input` (and any `example` or
 * `examples` keyword inside its schema) describe somebody else's request: they must never reach a payload.
 *
 * The extractor puts them here; only the leak firewall (src/stages/leak-firewall.ts) and shadow mode read
 * them, and the reviewer console shows the example to people, labelled as never used
 * (src/review/review-form.ts). The values live in a private field, so spreading, logging or JSON-serialising a
 * quarantine never copies them by accident, and no builder input type has a place to hold one.
 */

import type { ExampleFragment } from './fragments/types.ts';

/** One example leaf value and where it sat in the example (`/prompt`, `/images/0`). */
export interface QuarantinedValue {
  readonly path: string;
  readonly value: string | number;
}

/**
 * The storage form (a row in model_examples); never handed to a builder. Version 2 adds the distinctive
 * fragments (fragments/derive.ts), derived once at extraction; a version 1 row has none stored, and the
 * firewall derives them when it first needs them.
 */
export interface StoredQuarantine {
  version: 1 | 2;
  entries: QuarantinedValue[];
  /** The example object as it came, for shadow mode's V2 builder, which must see it to behave like V2. */
  example: Record<string, unknown>;
  fragments?: ExampleFragment[];
}

const MAX_DEPTH = 8;
const MAX_ENTRIES = 2000;

export class ExampleQuarantine {
  readonly #entries: readonly QuarantinedValue[];
  readonly #example: Readonly<Record<string, unknown>>;
  readonly #fragments: readonly ExampleFragment[] | undefined;

  private constructor(entries: readonly QuarantinedValue[], example: Record<string, unknown>, fragments?: readonly ExampleFragment[]) {
    this.#entries = Object.freeze([...entries]);
    this.#example = Object.freeze({ ...example });
    this.#fragments = fragments && Object.freeze(fragments.map((fragment) => Object.freeze({ ...fragment })));
  }

  static empty(): ExampleQuarantine {
    return new ExampleQuarantine([], {});
  }

  /**
   * Quarantines an example object plus loose example values found elsewhere (schema `example` keywords).
   * Strings and numbers are kept as leaves; booleans and nulls carry no content and are not kept.
   * @param assembled for a source with no example object of its own, the one its per-input examples make
   *   (a provider document's); shown and used as `exampleInput()`, its leaves already among `extra`.
   */
  static fromExamples(example: unknown, extra: QuarantinedValue[] = [], assembled?: Record<string, unknown>): ExampleQuarantine {
    const entries: QuarantinedValue[] = [];
    collectLeaves(example, '', 0, entries);
    for (const item of extra) collectLeaves(item.value, item.path, 0, entries);
    const exampleObject = isPlainObject(example) ? example : (assembled ?? {});
    return new ExampleQuarantine(dedupe(entries).slice(0, MAX_ENTRIES), exampleObject);
  }

  static fromStorage(stored: StoredQuarantine | null | undefined): ExampleQuarantine {
    if (!stored) return ExampleQuarantine.empty();
    return new ExampleQuarantine(stored.entries, stored.example ?? {}, stored.fragments);
  }

  /** The same quarantine with its distinctive fragments (derived by the extractor, which knows the schema). */
  withFragments(fragments: readonly ExampleFragment[]): ExampleQuarantine {
    return new ExampleQuarantine(this.#entries, { ...this.#example }, fragments);
  }

  get size(): number {
    return this.#entries.length;
  }

  /** For the leak firewall and shadow reports only. */
  entries(): readonly QuarantinedValue[] {
    return this.#entries;
  }

  /** For the leak firewall only: the stored fragments, or undefined when this quarantine predates them. */
  fragments(): readonly ExampleFragment[] | undefined {
    return this.#fragments;
  }

  /**
   * The example object as the model published it: for shadow mode's legacy V2 builder, and for people (the
   * reviewer console shows it beside the candidate). Never for a builder.
   */
  exampleInput(): Readonly<Record<string, unknown>> {
    return this.#example;
  }

  toStorage(): StoredQuarantine {
    const stored: StoredQuarantine = { version: 1, entries: [...this.#entries], example: { ...this.#example } };
    return this.#fragments ? { ...stored, version: 2, fragments: this.#fragments.map((fragment) => ({ ...fragment })) } : stored;
  }

  /** Serialises to a count, never to the values. */
  toJSON(): { quarantinedValues: number } {
    return { quarantinedValues: this.#entries.length };
  }
}

function collectLeaves(value: unknown, path: string, depth: number, out: QuarantinedValue[]): void {
  if (depth > MAX_DEPTH || out.length >= MAX_ENTRIES) return;
  if (typeof value === 'string') {
    if (value.trim() !== '') out.push({ path: path || '/', value });
  } else if (typeof value === 'number') {
    if (Number.isFinite(value)) out.push({ path: path || '/', value });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => collectLeaves(item, `${path}/${index}`, depth + 1, out));
  } else if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) collectLeaves(inner, `${path}/${escapePointer(key)}`, depth + 1, out);
  }
}

function dedupe(entries: QuarantinedValue[]): QuarantinedValue[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.path}\u0000${typeof entry.value}\u0000${entry.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
