/**
 * Pause, resume and cancel: operator moves on a run, whatever stage it is in. Each is one commit of a move
 * (src/engine/moves.ts) bound to the status the run was seen in; a run in a terminal state refuses them
 * (RUN_STATE_CONFLICT, 409).
 */
import { commit } from '../engine/commit.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';
import { isTerminal } from '../run-states.ts';

export interface ControlInput {
  runId: string;
  /** A run of another tenant is "not found". Omit for operator tools. */
  tenantId?: string;
  actor: string;
  reason?: string;
}

async function loadControllable(engine: Engine, input: ControlInput): Promise<RunRow> {
  const run = await engine.store.get(input.runId, input.tenantId);
  if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${input.runId}`, { field: 'id' });
  if (isTerminal(run.status)) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}; it can no longer be changed`, { field: 'id' });
  return run;
}

function conflict(run: RunRow, what: string): VettedError {
  return new VettedError('RUN_STATE_CONFLICT', `The run changed while it was being ${what}; fetch it again`, { field: 'id', details: { runStatus: run.status } });
}

/** A moving run changes status between our read and our write; a few fresh tries settle it. */
const PAUSE_TRIES = 5;

export async function pauseRun(engine: Engine, input: ControlInput): Promise<RunRow> {
  for (let attempt = 1; ; attempt++) {
    const run = await loadControllable(engine, input);
    if (run.status === 'paused') throw new VettedError('RUN_STATE_CONFLICT', 'The run is already paused', { field: 'id' });
    const paused = await commit(engine, { kind: 'pause', run, actor: input.actor, reason: input.reason });
    if (paused) return paused;
    if (attempt >= PAUSE_TRIES) throw conflict(run, 'paused');
  }
}

/** Puts a paused run back where it was: its stage as a new visit, or its pending review (expiry re-armed). */
export async function resumeRun(engine: Engine, input: ControlInput): Promise<RunRow> {
  const run = await loadControllable(engine, input);
  if (run.status !== 'paused' || !run.pausedFrom) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}, not paused`, { field: 'id' });
  const resumed = await commit(engine, { kind: 'resume', run, actor: input.actor, reason: input.reason });
  if (!resumed) throw conflict(run, 'resumed');
  return resumed;
}

/** Cancels the run; the commit asks the provider to cancel an execution under way (best effort). */
export async function cancelRun(engine: Engine, input: ControlInput): Promise<RunRow> {
  const run = await loadControllable(engine, input);
  const cancelled = await commit(engine, { kind: 'cancel', run, actor: input.actor, reason: input.reason });
  if (!cancelled) throw conflict(run, 'cancelled');
  return cancelled;
}
