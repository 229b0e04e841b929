/**
 * The legacy V2 builder, kept only to measure what V3 fixed. V2 handed the model's example input to the
 * payload builder and used the example as the base of the payload: whatever the builder did not fill, the
 * example did (its demo prompt, its demo image, its seed). V2 also routed an attachment the builder could not
 * place into the field that held a URL in the example.
 *
 * It wraps the same PayloadBuilder V3 uses (heuristic, openai), so the only difference between the two sides
 * is exposure to the example. It lives outside src/builders on purpose: builders may not import the
 * quarantine (lint rule), and this one must see it. It never executes anything.
 */
import type { Attachment, CandidatePayload } from '../generated/contracts.ts';
import type { BuilderInput, PayloadBuilder } from '../ports.ts';

/** What V2 made of one bundle. */
export interface LegacyBuildResult {
  /** The V2 payload: the example, the builder's values on top, then the attachment fallbacks. */
  payload: Record<string, unknown>;
  /** What the wrapped builder produced from the bundle and the schema alone. */
  filled: CandidatePayload;
  /** Fields whose V2 value is the example's own (the builder left them empty). */
  fromExample: string[];
  /** Attachments the builder placed nowhere, put where the example had a URL. */
  attachmentFallbacks: { field: string; url: string }[];
}

export interface LegacyV2Builder {
  /** `v2:<wrapped builder>`. */
  readonly name: string;
  /** The builder V3 uses for the same run. */
  readonly inner: PayloadBuilder;
  /**
   * Builds like V2 did. Throws whatever the wrapped builder throws (shadow mode records it on the report).
   * @param example the model's example input as published (ExampleQuarantine.exampleInput()).
   * @param options.built the wrapped builder's candidate for this very input, if one exists; used instead of
   *   building again only when the wrapped builder is deterministic (for any other it is ignored).
   */
  build(
    input: BuilderInput,
    example: Readonly<Record<string, unknown>>,
    options?: { signal?: AbortSignal; built?: CandidatePayload },
  ): Promise<LegacyBuildResult>;
}

/** Wraps a V3 builder so it behaves like V2. */
export function createLegacyV2Builder(inner: PayloadBuilder): LegacyV2Builder {
  return {
    name: `v2:${inner.name}`,
    inner,
    async build(input, example, options) {
      // V2 ran the same builder on the same input, so a deterministic builder's V3 candidate is V2's `filled`:
      // building again would cost a second build per shadowed run and change nothing.
      const filled = inner.deterministic && options?.built ? options.built : await inner.build(input, { signal: options?.signal });
      return mergeLikeV2(filled, example, input.bundle.attachments);
    },
  };
}

/**
 * V2's merge, pure: the example as the base; on top, every value the builder took from the request (prompt,
 * attachments, edits, inference) and its schema defaults only where the example has no value (V2 knew no
 * defaults apart from the example, so the example's settings won); then the attachments the builder did not
 * use into the example's URL fields the builder left alone (in the example's key order; a single URL field
 * takes one attachment, a list field takes the rest).
 */
export function mergeLikeV2(
  filled: CandidatePayload,
  example: Readonly<Record<string, unknown>>,
  attachments: readonly Attachment[],
): LegacyBuildResult {
  // A deep copy: the quarantine's example is frozen and shared; the payload must be a value of its own.
  const payload: Record<string, unknown> = structuredClone({ ...example });
  const builderValues = fromRequest(filled, example);
  for (const [field, value] of Object.entries(builderValues)) payload[field] = value;
  const fromExample = Object.keys(example).filter((field) => !Object.hasOwn(builderValues, field));

  const attachmentFallbacks: LegacyBuildResult['attachmentFallbacks'] = [];
  const unused = attachments.map((a) => a.url).filter((url) => !mentionsUrl(builderValues, url));
  for (const field of fromExample) {
    if (unused.length === 0) break;
    const shape = urlShape(example[field]);
    if (shape === 'none') continue;
    const taken = shape === 'list' ? unused.splice(0) : unused.splice(0, 1);
    payload[field] = shape === 'list' ? taken : taken[0];
    for (const url of taken) attachmentFallbacks.push({ field, url });
  }
  const placed = new Set(attachmentFallbacks.map((entry) => entry.field));
  return { payload, filled, fromExample: fromExample.filter((field) => !placed.has(field)), attachmentFallbacks };
}

const HTTP_URL = /^https?:\/\/\S+$/i;

/** The builder's values that override the example: all but schema defaults for fields the example sets. */
function fromRequest(filled: CandidatePayload, example: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(filled.payload as Record<string, unknown>)) {
    const isDefault = filled.provenance[field]?.source === 'schema_default';
    if (!isDefault || !Object.hasOwn(example, field)) values[field] = value;
  }
  return values;
}

/** Whether an example value is one URL, a list of URLs, or neither. */
function urlShape(value: unknown): 'single' | 'list' | 'none' {
  if (typeof value === 'string') return HTTP_URL.test(value) ? 'single' : 'none';
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' && HTTP_URL.test(item))) return 'list';
  return 'none';
}

function mentionsUrl(payload: Readonly<Record<string, unknown>>, url: string): boolean {
  return Object.values(payload).some((value) => value === url || (Array.isArray(value) && value.includes(url)));
}
