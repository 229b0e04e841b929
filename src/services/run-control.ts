/**
 * Pause, resume and cancel: operator moves on a run, whatever stage it is in. Each is one compare-and-set
 * on the status the run was seen in; a run in a terminal state refuses them (RUN_STATE_CONFLICT, 409).
 */
import type { RunRow } from '../db/schema/index.ts';
import { VettedError } from '../errors.ts';
import { logEvent } from '../observability/logger.ts';
import { isInFlight, isTerminal } from '../run-states.ts';
import type { System } from '../system.ts';
import { advanceToStage, endRun, logContext } from './run-transitions.ts';

export interface ControlInput {
  runId: string;
  /** A run of another tenant is "not found". Omit for operator tools. */
  tenantId?: string;
  actor: string;
  reason?: string;
}

async function loadControllable(system: System, input: ControlInput): Promise<RunRow> {
  const run = await system.runs.get(input.runId, input.tenantId);
  if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${input.runId}`, { field: 'id' });
  if (isTerminal(run.status)) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}; it can no longer be changed`, { field: 'id' });
  return run;
}

function conflict(run: RunRow, what: string): VettedError {
  return new VettedError('RUN_STATE_CONFLICT', `The run changed while it was being ${what}; fetch it again`, { field: 'id', details: { runStatus: run.status } });
}

/** A moving run changes status between our read and our write; a few fresh tries settle it. */
const PAUSE_TRIES = 5;

export async function pauseRun(system: System, input: ControlInput): Promise<RunRow> {
  for (let attempt = 1; ; attempt++) {
    const run = await loadControllable(system, input);
    if (run.status === 'paused') throw new VettedError('RUN_STATE_CONFLICT', 'The run is already paused', { field: 'id' });
    const moved = await system.runs.transition({
      runId: run.id, from: [run.status], to: 'paused', set: { pausedFrom: run.status },
      event: { type: 'run.paused', actor: input.actor, data: { from: run.status, reason: input.reason ?? null } },
    });
    if (moved) {
      logEvent(system.logger, 'RUN_PAUSED', logContext(run), { from: run.status, actor: input.actor });
      return moved.run;
    }
    if (attempt >= PAUSE_TRIES) throw conflict(run, 'paused');
  }
}

/** Puts a paused run back where it was: re-enqueues its stage, or re-arms its pending review's expiry. */
export async function resumeRun(system: System, input: ControlInput): Promise<RunRow> {
  const run = await loadControllable(system, input);
  if (run.status !== 'paused' || !run.pausedFrom) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}, not paused`, { field: 'id' });
  const guard = { from: ['paused' as const], actor: input.actor };
  let resumed: RunRow | undefined;
  if (isInFlight(run.pausedFrom)) {
    resumed = await advanceToStage(system, run, run.stage, guard, { eventType: 'run.resumed', set: { pausedFrom: null }, data: { reason: input.reason ?? null } });
  } else {
    resumed = (await system.runs.transition({
      runId: run.id, from: ['paused'], to: run.pausedFrom, set: { pausedFrom: null },
      event: { type: 'run.resumed', actor: input.actor, data: { to: run.pausedFrom } },
    }))?.run;
    if (resumed?.reviewExpiresAt) await system.queues.scheduleExpiry(resumed.reviewExpiresAt);
  }
  if (!resumed) throw conflict(run, 'resumed');
  logEvent(system.logger, 'RUN_RESUMED', logContext(run), { to: resumed.status, actor: input.actor });
  return resumed;
}

/** Cancels the run, and asks the provider to cancel an execution that is under way (best effort). */
export async function cancelRun(system: System, input: ControlInput): Promise<RunRow> {
  const run = await loadControllable(system, input);
  const cancelled = await endRun(system, run, 'cancelled', { code: 'CANCELLED', message: input.reason ?? `Cancelled by ${input.actor}` }, {
    from: [run.status], actor: input.actor, guard: { attempt: run.attempt },
  });
  if (!cancelled) throw conflict(run, 'cancelled');
  await cancelStartedExecutions(system, run);
  return cancelled;
}

async function cancelStartedExecutions(system: System, run: RunRow): Promise<void> {
  const provider = system.adapters.provider(run.provider);
  if (!provider.cancel) return;
  for (const execution of await system.executions.listForRun(run.id)) {
    if (execution.status !== 'started' || !execution.predictionId) continue;
    await provider.cancel({ predictionId: execution.predictionId }).catch((error: unknown) => {
      system.logger.warn({ err: error, runId: run.id, predictionId: execution.predictionId }, 'provider cancel failed');
    });
  }
}
