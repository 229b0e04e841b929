/**
 * The one place the V3 path touches shadow mode: once the build stage's advance is persisted, decide whether
 * this run is shadowed and, if so, queue a `vetted-shadow` job. It returns at once and cannot throw: the
 * decision and the enqueue run detached, and any failure is logged (SHADOW_TRIGGER_FAILED), never passed
 * on, so shadow mode can neither delay, change nor fail a V3 run.
 */
import type { RunRow } from '../engine/store.ts';
import { logContext, logEvent } from '../observability/logger.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import { keepBuiltRow } from './built-rows.ts';
import type { ShadowJob, ShadowSettingsReader } from './shadow-rows.ts';
import { decideShadow, type ShadowDecision } from './sampling.ts';

/**
 * The run as the build stage's move returned it: the visit number names the candidate being compared, and
 * the row is handed to that build's shadow job if it runs in this process (built-rows.ts).
 */
export interface BuiltRun {
  run: RunRow;
  buildAttempt: number;
}

/** What the trigger needs: a System has all of it (src/system.ts wires the trigger as its onBuilt). */
export interface ShadowTriggerDeps {
  config: Readonly<Config>;
  logger: Logger;
  shadowSettings: ShadowSettingsReader;
  /** BullMQ's queue, or the embedded runner's: either carries the job to shadowRun. */
  queues: { enqueueShadow(job: ShadowJob): Promise<void> };
  store: object;
}

/**
 * Fire-and-forget: the build stage's job finishes without waiting for this. The returned promise is for
 * tests; it resolves to the decision (undefined when deciding failed) and never rejects.
 */
export function triggerShadow(system: ShadowTriggerDeps, built: BuiltRun): Promise<ShadowDecision | undefined> {
  return shadowIfChosen(system, built).catch((error: unknown) => {
    logEvent(system.logger, 'SHADOW_TRIGGER_FAILED', logContext(built.run), { reason: error instanceof Error ? error.message : String(error) }, 'warn');
    return undefined;
  });
}

async function shadowIfChosen(system: ShadowTriggerDeps, { run, buildAttempt }: BuiltRun): Promise<ShadowDecision> {
  const requested = run.request.shadow;
  // Nothing to look up when the request decided; otherwise the tenant's settings come from a 10-second cache.
  const settings = requested === undefined ? await system.shadowSettings.forTenant(run.tenantId) : [];
  const decision = decideShadow({ runId: run.id, requested, model: run.model, settings, defaultRate: system.config.shadow.sampleRate });
  if (decision.shadow) {
    keepBuiltRow(system, run, buildAttempt);
    await system.queues.enqueueShadow({ runId: run.id, attempt: buildAttempt });
  }
  return decision;
}
