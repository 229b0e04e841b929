/**
 * The shapes shadow mode produces: one comparison of the legacy V2 payload with the V3 one, and the leak
 * statistics engineers read to decide a cut-over. Stored (shadow_reports), served (API) and printed (CLI).
 */
import type { LeakFinding, LeakMatch } from '../stages/leak-firewall.ts';

export type { LeakFinding, LeakMatch };

/** One structural difference between the V2 and V3 payloads (microdiff's shape, kept as it came). */
export interface PayloadDifference {
  type: 'CREATE' | 'REMOVE' | 'CHANGE';
  /** Path from the payload root: the field name, then array indexes or nested keys. */
  path: (string | number)[];
  /** The V3 value (absent for REMOVE). */
  value?: unknown;
  /** The V2 value (absent for CREATE). */
  oldValue?: unknown;
}

export type ShadowStatus = 'ok' | 'failed';

/** V2 beside V3 for one bundle. A failed comparison says why and holds whatever was computed before it failed. */
export interface ShadowComparison {
  status: ShadowStatus;
  failureReason: string | null;
  v2Payload: Record<string, unknown> | null;
  v3Payload: Record<string, unknown> | null;
  /** V2 → V3: what changes when the V2 payload becomes the V3 one. */
  diff: PayloadDifference[];
  /** Example values in the V2 payload that neither the user nor the schema default explains. */
  leaks: LeakFinding[];
  /** The same check on the V3 payload: empty unless zero trust is broken. */
  v3Leaks: LeakFinding[];
  /** Top-level fields with at least one V2 leak, sorted. */
  leakedFields: string[];
  /** Top-level fields whose value differs between V2 and V3. */
  fieldsDiffering: number;
}

/** Counts over a set of shadow comparisons (one model, or all of them). */
export interface LeakTotals {
  /** Comparisons made (shadowed runs, or replayed requests). */
  reports: number;
  /** Comparisons that failed (V2 threw, the diff could not be computed); not counted in the rate. */
  failed: number;
  /** Successful comparisons in which V2 leaked at least one example value. */
  withLeaks: number;
  /** withLeaks / (reports - failed); 0 when nothing succeeded. */
  leakRate: number;
  /** Leak findings in V2 payloads, summed. */
  v2Leaks: number;
  /** Leak findings in V3 payloads, summed: must be 0. */
  v3Leaks: number;
  /** Fields differing between V2 and V3, summed. */
  fieldsDiffering: number;
}

export interface ModelLeakStats extends LeakTotals {
  /** `owner/name`, or `(inline)` for runs whose model was sent inline without a name. */
  model: string;
}

/** How often one field of one model leaked. */
export interface FieldLeakStats {
  model: string;
  field: string;
  /** Successful comparisons for the model. */
  reports: number;
  /** Of those, how many leaked this field. */
  leaked: number;
  leakRate: number;
  matches: LeakMatch[];
  /** One example value that leaked here, to recognise it. */
  exampleValue: string | number | null;
}

/** Leak statistics since a point in time. */
export interface ShadowSummary {
  since: string;
  totals: LeakTotals;
  models: ModelLeakStats[];
  /** Worst first: highest rate, then most leaks. */
  fields: FieldLeakStats[];
}

/** The rate, rounded to 4 places so stored, served and printed figures agree. */
export function leakRate(withLeaks: number, succeeded: number): number {
  return succeeded > 0 ? Math.round((withLeaks / succeeded) * 10_000) / 10_000 : 0;
}
