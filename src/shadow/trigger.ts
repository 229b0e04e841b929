/**
 * The one place the V3 path touches shadow mode: once the build stage's advance is persisted, decide whether
 * this run is shadowed and, if so, queue a `vetted-shadow` job. It returns at once and cannot throw: the
 * decision and the enqueue run detached, and any failure is logged (SHADOW_TRIGGER_FAILED), never passed
 * on, so shadow mode can neither delay, change nor fail a V3 run.
 */
import type { RunRow } from '../db/schema/index.ts';
import { createShadowSettingsRepository, type ShadowSettingsRepository } from '../db/shadow-settings-repository.ts';
import { logEvent } from '../observability/logger.ts';
import { logContext } from '../services/run-transitions.ts';
import { keepBuiltRow } from './built-rows.ts';
import type { System } from '../system.ts';
import { decideShadow, type ShadowDecision } from './sampling.ts';

/**
 * Settings caches, one per System, made on first use. A WeakMap rather than a System field keeps shadow mode
 * out of System's constructor; it holds nothing a System does not own and goes when the System does.
 */
const settingsBySystem = new WeakMap<object, ShadowSettingsRepository>();

/** The shadow settings repository (with its short cache) of a system. */
export function shadowSettingsOf(system: System): ShadowSettingsRepository {
  // Keyed by the database handle: a test system spreads a System into a new object but shares its database.
  let repository = settingsBySystem.get(system.database);
  if (!repository) {
    repository = createShadowSettingsRepository(system.database.db);
    settingsBySystem.set(system.database, repository);
  }
  return repository;
}

/**
 * The run as the build stage's move returned it: the visit number names the candidate being compared, and
 * the row is handed to that build's shadow job if it runs in this process (built-rows.ts).
 */
export interface BuiltRun {
  run: RunRow;
  buildAttempt: number;
}

/**
 * Fire-and-forget: the build stage's job finishes without waiting for this. The returned promise is for
 * tests; it resolves to the decision (undefined when deciding failed) and never rejects.
 */
export function triggerShadow(system: System, built: BuiltRun): Promise<ShadowDecision | undefined> {
  return shadowIfChosen(system, built).catch((error: unknown) => {
    logEvent(system.logger, 'SHADOW_TRIGGER_FAILED', logContext(built.run), { reason: error instanceof Error ? error.message : String(error) }, 'warn');
    return undefined;
  });
}

async function shadowIfChosen(system: System, { run, buildAttempt }: BuiltRun): Promise<ShadowDecision> {
  const requested = run.request.shadow;
  // Nothing to look up when the request decided; otherwise the tenant's settings come from a 10-second cache.
  const settings = requested === undefined ? await shadowSettingsOf(system).forTenant(run.tenantId) : [];
  const decision = decideShadow({ runId: run.id, requested, model: run.model, settings, defaultRate: system.config.shadow.sampleRate });
  if (decision.shadow) {
    keepBuiltRow(system, run, buildAttempt);
    await system.queues.enqueueShadow({ runId: run.id, attempt: buildAttempt });
  }
  return decision;
}
