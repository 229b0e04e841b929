/**
 * V2 beside V3 for one bundle: build the V2 payload, diff it against the V3 candidate, and find the example
 * values each one carries with the leak firewall's own rules (findExampleLeaks), so "leak" means the same
 * thing in a shadow report as in a blocked V3 run. Pure apart from the wrapped builder's own I/O.
 */
import diff from 'microdiff';
import { isVettedError } from '../errors.ts';
import type { CandidatePayload, ModelSchema, RequestBundle } from '../generated/contracts.ts';
import type { ExampleQuarantine } from '../stages/example-quarantine.ts';
import { findExampleLeaks, type LeakFinding } from '../stages/leak-firewall.ts';
import type { LegacyV2Builder } from './legacy-v2-builder.ts';
import type { PayloadDifference, ShadowComparison } from './types.ts';

/** Failure reasons are stored and shown; a stack-trace-sized message helps nobody. */
const REASON_MAX = 500;

export interface ShadowBuildInput {
  bundle: RequestBundle;
  schema: ModelSchema;
  quarantine: ExampleQuarantine;
  /** The V3 candidate the run is using (or, in replay, the one the same builder just made). */
  v3: CandidatePayload;
  /**
   * Whether `v3` is exactly what the wrapped builder made from this bundle and schema (no edits applied
   * since), so a deterministic builder need not build it again for V2.
   */
  v3IsBuilderOutput?: boolean;
  legacy: LegacyV2Builder;
  signal?: AbortSignal;
}

/**
 * Builds the V2 payload and compares it with V3. Never throws: a V2 builder that fails, or a diff that cannot
 * be computed, gives a `failed` comparison whose reason says which side and why.
 */
export async function shadowBuild(input: ShadowBuildInput): Promise<ShadowComparison> {
  const v3Payload = input.v3.payload as Record<string, unknown>;
  let v2Payload: Record<string, unknown>;
  try {
    const built = await input.legacy.build({ bundle: input.bundle, schema: input.schema }, input.quarantine.exampleInput(), {
      signal: input.signal,
      built: input.v3IsBuilderOutput ? input.v3 : undefined,
    });
    v2Payload = built.payload;
  } catch (error) {
    return failedComparison(`V2 builder (${input.legacy.name}) failed: ${describeError(error)}`, null, v3Payload);
  }
  try {
    return comparePayloads({ v2Payload, v3Payload, bundle: input.bundle, schema: input.schema, quarantine: input.quarantine });
  } catch (error) {
    return failedComparison(`the payloads could not be compared: ${describeError(error)}`, v2Payload, v3Payload);
  }
}

export interface PayloadPair {
  v2Payload: Record<string, unknown>;
  v3Payload: Record<string, unknown>;
  bundle: RequestBundle;
  schema: ModelSchema;
  quarantine: ExampleQuarantine;
}

/** The structural diff and both sides' leaks. Throws when a payload cannot be walked (e.g. not an object). */
export function comparePayloads(pair: PayloadPair): ShadowComparison {
  const context = { schema: pair.schema, bundle: pair.bundle };
  const differences = payloadDiff(pair.v2Payload, pair.v3Payload);
  const leaks = findExampleLeaks(pair.v2Payload, pair.quarantine, context);
  return {
    status: 'ok',
    failureReason: null,
    v2Payload: pair.v2Payload,
    v3Payload: pair.v3Payload,
    diff: differences,
    leaks,
    v3Leaks: findExampleLeaks(pair.v3Payload, pair.quarantine, context),
    leakedFields: fieldsOfLeaks(leaks),
    fieldsDiffering: new Set(differences.map((d) => String(d.path[0]))).size,
  };
}

/** V2 → V3 with microdiff. Payloads are JSON, so there are no cycles to guard against. */
export function payloadDiff(v2: Record<string, unknown>, v3: Record<string, unknown>): PayloadDifference[] {
  if (!isObject(v2) || !isObject(v3)) throw new TypeError('both payloads must be JSON objects');
  return diff(v2, v3).map((d) => ({ ...d, path: [...d.path] }));
}

/** The top-level field a leak sits in: `/images/0` → `images`, `/a~1b` → `a/b`. */
export function fieldOfPath(pointer: string): string {
  const segment = pointer.split('/')[1] ?? '';
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function fieldsOfLeaks(leaks: readonly LeakFinding[]): string[] {
  return [...new Set(leaks.map((leak) => fieldOfPath(leak.path)))].sort();
}

/** A failed comparison: the reason, and whatever payloads were made before it failed. */
export function failedComparison(reason: string, v2Payload: Record<string, unknown> | null, v3Payload: Record<string, unknown> | null): ShadowComparison {
  return {
    status: 'failed',
    failureReason: reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason,
    v2Payload,
    v3Payload,
    diff: [],
    leaks: [],
    v3Leaks: [],
    leakedFields: [],
    fieldsDiffering: 0,
  };
}

function describeError(error: unknown): string {
  if (isVettedError(error)) return `[${error.code}] ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
