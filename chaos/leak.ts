/**
 * The soak's leak checks, pure: from samples of one figure over time (RSS, Redis keys, p99 latency...) to its
 * growth per hour after the warm-up, by a least-squares line, and a verdict. A figure leaks when it keeps
 * growing: its fitted slope is above the figure's allowance per hour AND the line explains most of the
 * movement (r² ≥ 0.5) AND the later half of the samples still climbs at half that allowance or more; a figure
 * that rose once and stays (a cache filling up, a pool opening) levels off, so the last test fails for it.
 */

export interface Sample {
  /** Minutes since the soak started. */
  minute: number;
  value: number;
}

export interface Fit {
  /** Units per hour. */
  slopePerHour: number;
  r2: number;
  first: number;
  last: number;
}

/** Least squares over (minute, value); slope scaled to an hour. Needs two distinct minutes, else slope 0. */
export function fitLine(samples: readonly Sample[]): Fit {
  const n = samples.length;
  const first = samples[0]?.value ?? 0;
  const last = samples.at(-1)?.value ?? 0;
  if (n < 2) return { slopePerHour: 0, r2: 0, first, last };
  const mx = samples.reduce((s, p) => s + p.minute, 0) / n;
  const my = samples.reduce((s, p) => s + p.value, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const p of samples) {
    sxy += (p.minute - mx) * (p.value - my);
    sxx += (p.minute - mx) ** 2;
    syy += (p.value - my) ** 2;
  }
  if (sxx === 0) return { slopePerHour: 0, r2: 0, first, last };
  const slope = sxy / sxx;
  const r2 = syy === 0 ? 0 : (sxy * sxy) / (sxx * syy);
  return { slopePerHour: slope * 60, r2, first, last };
}

export interface LeakRule {
  /** The figure, as printed: "API RSS (MB)". */
  name: string;
  /** Growth per hour above which a steady climb is a leak (in the figure's unit). */
  allowancePerHour: number;
}

export interface LeakFinding {
  name: string;
  fit: Fit;
  leaking: boolean;
  why: string;
}

/** Judges one figure's samples taken after `warmupMinutes`. */
export function judgeGrowth(rule: LeakRule, samples: readonly Sample[], warmupMinutes: number): LeakFinding {
  const steady = samples.filter((s) => s.minute >= warmupMinutes);
  const fit = fitLine(steady);
  if (steady.length < 4) return { name: rule.name, fit, leaking: false, why: `only ${steady.length} samples after the warm-up: not judged` };
  const climbing = fitLine(steady.slice(Math.floor(steady.length / 2))).slopePerHour >= rule.allowancePerHour / 2;
  const leaking = fit.slopePerHour > rule.allowancePerHour && fit.r2 >= 0.5 && climbing;
  const why = leaking
    ? `grows ${round(fit.slopePerHour)}/h (allowed ${rule.allowancePerHour}/h), r² ${round(fit.r2)}: a steady climb`
    : fit.slopePerHour > rule.allowancePerHour
      ? `slope ${round(fit.slopePerHour)}/h but not a steady climb (r² ${round(fit.r2)}${climbing ? '' : ', levelled off'})`
      : `${round(fit.slopePerHour)}/h, within ${rule.allowancePerHour}/h`;
  return { name: rule.name, fit, leaking, why };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
