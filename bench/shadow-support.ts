/**
 * What a benchmark needs to measure the V3 pipeline with shadow mode on (`npm run bench -- --shadow 1.0`):
 * the environment that turns sampling on in a worker process, a per-tenant switch for systems built in
 * process, and the shadow queue's backlog and the reports written, to show that V2 kept up (or how far
 * behind it fell) without holding V3 back.
 */
import { count, like, sql } from 'drizzle-orm';
import { VettedError } from '../src/errors.ts';
import { shadowReports } from '../src/db/schema/index.ts';
import type { QueuedSystem as System } from '../src/system.ts';

/** The work kind that runs the `vetted-shadow` queue (add it to startWorkers' kinds beside the stages). */
export const SHADOW_WORK_KIND = 'shadow' as const;

/**
 * Environment overrides for a worker process whose build stage shadows runs at `rate` (0..1) by default
 * (VETTED_SHADOW_SAMPLE_RATE); merge them into the env loadConfig reads.
 * @throws VettedError INVALID_REQUEST (field `shadow`) for a rate outside 0..1.
 */
export function shadowBenchEnv(rate: number): Record<string, string> {
  if (!Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new VettedError('INVALID_REQUEST', `--shadow ${String(rate)} must be a sample rate from 0 to 1`, { field: 'shadow' });
  }
  return { VETTED_SHADOW_SAMPLE_RATE: String(rate) };
}

/** Turns shadowing on at `rate` for one tenant (every model), taking effect at once in this process. */
export async function enableShadowing(system: System, input: { tenantId: string; rate: number; model?: string }): Promise<void> {
  await system.shadowSettings.upsert({ tenantId: input.tenantId, model: input.model ?? null, sampleRate: input.rate, updatedBy: 'bench' });
}

export interface ShadowProgress {
  /** Shadow jobs not finished yet (waiting, active, delayed). */
  backlog: number;
  /** Reports written for the tenants matched. */
  reports: number;
  failed: number;
  /** Example values found in V3 payloads: must be 0. */
  v3Leaks: number;
}

/** How far shadow mode has got, for tenants whose id starts with `tenantPrefix` (`bench-`). */
export async function shadowProgress(system: System, tenantPrefix: string): Promise<ShadowProgress> {
  const counts = await system.queues.shadow.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  const backlog = Object.values(counts).reduce((total, n) => total + n, 0);
  const r = shadowReports;
  const [row] = await system.database.db
    .select({
      reports: count(),
      failed: sql<number>`count(*) filter (where ${r.status} = 'failed')::int`,
      v3Leaks: sql<number>`coalesce(sum(${r.v3LeakCount}), 0)::int`,
    })
    .from(r)
    .where(like(r.tenantId, `${tenantPrefix.replace(/[\\%_]/g, '\\$&')}%`));
  return { backlog, reports: row?.reports ?? 0, failed: row?.failed ?? 0, v3Leaks: row?.v3Leaks ?? 0 };
}

/** Waits until the shadow queue is empty (V2 caught up), or `timeoutMs` passes; true when it drained. */
export async function waitForShadowDrain(system: System, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const counts = await system.queues.shadow.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).every((n) => n === 0)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
