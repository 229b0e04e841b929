/**
 * Which runs get shadowed. Pure: the answer depends on the run id, the request's own `shadow` flag, the
 * tenant's shadow_settings and the configured default, never on a clock or a random draw, so a retried or
 * replayed build makes the same choice as the first one.
 *
 * Precedence: the request's `shadow: true` (always) or `shadow: false` (never) → a setting for the run's
 * model (`owner/name:version`, then `owner/name`) → the tenant-wide setting → VETTED_SHADOW_SAMPLE_RATE.
 * A run is sampled at rate r when the fraction hashed from its id is below r.
 */
import { createHash } from 'node:crypto';

/** One shadow_settings row as the decision needs it. */
export interface ShadowSetting {
  /** Null: every model of the tenant. */
  model: string | null;
  sampleRate: number;
}

export type RateSource = 'model' | 'tenant' | 'default';

export interface ShadowDecision {
  shadow: boolean;
  reason: 'requested' | 'opted_out' | 'sampled' | 'not_sampled';
  /** The rate applied (1 or 0 when the request decided). */
  rate: number;
  source: RateSource | 'request';
}

export interface ShadowDecisionInput {
  runId: string;
  /** GenerationRequest.shadow. */
  requested: boolean | undefined;
  /** The run's model reference (`owner/name` or `owner/name:version`), when known. */
  model: string | null;
  settings: readonly ShadowSetting[];
  defaultRate: number;
}

/** A stable fraction in [0, 1) for a run id: the first 48 bits of its SHA-256. */
export function sampleFraction(runId: string): number {
  const digest = createHash('sha256').update(runId).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** True when a run with this id falls inside the sample at `rate` (0 never, 1 always). */
export function isSampled(runId: string, rate: number): boolean {
  if (!(rate > 0)) return false;
  return rate >= 1 || sampleFraction(runId) < rate;
}

/** The most specific configured rate for a model. */
export function sampleRateFor(settings: readonly ShadowSetting[], model: string | null, defaultRate: number): { rate: number; source: RateSource } {
  if (model) {
    const bare = model.split(':')[0];
    const exact = settings.find((s) => s.model === model) ?? settings.find((s) => s.model !== null && s.model === bare);
    if (exact) return { rate: exact.sampleRate, source: 'model' };
  }
  const tenantWide = settings.find((s) => s.model === null);
  return tenantWide ? { rate: tenantWide.sampleRate, source: 'tenant' } : { rate: defaultRate, source: 'default' };
}

/** Whether to shadow this run, and why. */
export function decideShadow(input: ShadowDecisionInput): ShadowDecision {
  if (input.requested === true) return { shadow: true, reason: 'requested', rate: 1, source: 'request' };
  if (input.requested === false) return { shadow: false, reason: 'opted_out', rate: 0, source: 'request' };
  const { rate, source } = sampleRateFor(input.settings, input.model, input.defaultRate);
  const shadow = isSampled(input.runId, rate);
  return { shadow, reason: shadow ? 'sampled' : 'not_sampled', rate, source };
}
