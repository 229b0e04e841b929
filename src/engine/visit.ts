/**
 * One stage visit, the same for the BullMQ processor and the in-process runner: open the visit, load and run
 * the stage's step, turn its outcome (or its error) into a move, commit it. Errors either end the run with a
 * reason (bad input), or come back as `retry` while the stage's attempts last (transient); when they are
 * spent the stage table says whether the run fails or a person is asked. A run is never dropped.
 */
import { assertNever, isVettedError } from '../errors.ts';
import { isThrottledError } from '../stages/executor.ts';
import type { RunError } from '../generated/contracts.ts';
import { logContext, logEvent } from '../observability/logger.ts';
import { runLabels } from '../observability/metrics.ts';
import { commit } from './commit.ts';
import type { Engine } from './engine.ts';
import type { Move } from './moves.ts';
import type { ParkRequest, StageOutcome } from './outcomes.ts';
import type { StageDefinition } from './stages.ts';
import type { RunRow, StageVisit } from './store.ts';
import { deferringLedger, directLedger, type VisitLedger } from './visit-ledger.ts';

/** Where this try stands among the visit's tries. */
export interface VisitTry {
  /** Tries already made and failed (BullMQ's attemptsMade). */
  made: number;
  /**
   * The visit's very first try: no earlier try can have recorded anything, so a side-effect-free execution
   * may be recorded with the move (visit-ledger.ts). A retry or a stalled job started again is not.
   */
  first: boolean;
}

export type VisitResult =
  | { kind: 'done'; run: RunRow; outcome: Exclude<StageOutcome['kind'], 'superseded'> }
  /** The run left the visit while the step ran (cancelled, paused, decided elsewhere): nothing was written. */
  | { kind: 'superseded' }
  /** A transient error while attempts remain: try the visit again (BullMQ's backoff, or the runner's loop). */
  | { kind: 'retry'; error: unknown };

/**
 * The run at this visit, ready for its step, or undefined when the run has moved on (a stale job). The first
 * stage opens with a move (queued → extracting); later ones were put in their status by the move that
 * enqueued their job, so opening them is the store's claim (a read, or the row that move handed over).
 */
export function openVisit(engine: Engine, stage: StageDefinition, job: { runId: string; attempt: number }): Promise<RunRow | undefined> {
  const visit: StageVisit = { runId: job.runId, stage: stage.name, attempt: job.attempt, status: stage.status };
  return stage.opens === 'start' ? commit(engine, { kind: 'start', visit }) : engine.store.claim(visit);
}

/** How the caller goes on after the visit. */
export interface VisitOptions {
  /** The caller runs the next stage itself if this visit advances (local-stages.ts): its commit adds no job. */
  continues?: boolean;
}

export async function performVisit(engine: Engine, stage: StageDefinition, run: RunRow, attempt: VisitTry, options: VisitOptions = {}): Promise<VisitResult> {
  const startedAt = performance.now();
  const ledger = attempt.first ? deferringLedger(engine.store.ledger) : directLedger(engine.store.ledger);
  const observe = (kind: string) => engine.metrics.stageDuration.observe({ ...runLabels(run), stage: stage.name, outcome: kind }, (performance.now() - startedAt) / 1000);
  let outcome = await outcomeOf(engine, stage, run, attempt, ledger);
  // A try that will be retried is observed too, so an error rate has every try under it.
  if (outcome.kind === 'retry') {
    observe('retry');
    return outcome;
  }
  const continues = options.continues === true;
  let moved = await commitOutcome(engine, stage, run, outcome, ledger, startedAt, continues);
  if (!moved && ledger.deferredRecord()) {
    // The move that was to record the execution missed: the run left the visit, or an earlier try recorded the
    // step. Run the step again against the real ledger, whose answer says which.
    const direct = directLedger(engine.store.ledger);
    outcome = await outcomeOf(engine, stage, run, { ...attempt, first: false }, direct);
    if (outcome.kind === 'retry') {
      observe('retry');
      return outcome;
    }
    moved = await commitOutcome(engine, stage, run, outcome, direct, startedAt, continues);
  }
  observe(outcome.kind);
  if (!moved || outcome.kind === 'superseded') {
    logEvent(engine.logger, 'STAGE_STALE_JOB', logContext(run), { stage: stage.name, reason: 'the run changed while the stage ran' });
    return { kind: 'superseded' };
  }
  return { kind: 'done', run: moved, outcome: outcome.kind };
}

type StepResult = StageOutcome | { kind: 'retry'; error: unknown };

async function outcomeOf(engine: Engine, stage: StageDefinition, run: RunRow, attempt: VisitTry, ledger: VisitLedger): Promise<StepResult> {
  try {
    const input = await stage.steps.load(run, engine);
    const outcome = await stage.steps.step(input, { ledger });
    if (stage.name === 'execute' && outcome.kind === 'fail') countProviderError(engine, run, outcome.error.code);
    return outcome;
  } catch (error) {
    if (stage.name === 'execute') countProviderError(engine, run, isVettedError(error) ? error.code : 'INTERNAL');
    return outcomeForError(engine, stage, run, attempt, error);
  }
}

/** A provider call that threw, or whose prediction failed: every try counts (a retried 429 is still an error). */
function countProviderError(engine: Engine, run: RunRow, code: string): void {
  engine.metrics.providerErrors.inc({ ...runLabels(run), provider: run.provider, code });
}

/** Bad input ends the run now; anything transient is retried until the stage's attempts are spent. */
function outcomeForError(engine: Engine, stage: StageDefinition, run: RunRow, attempt: VisitTry, error: unknown): StepResult {
  const runError = toRunError(error, stage);
  // A builder that gave up (its SDK already retried: timeout, 429, 5xx, refusal, bad JSON) goes to a person.
  const builderGaveUp = isVettedError(error) && error.code === 'BUILDER_FAILED';
  if (isVettedError(error) && !error.retryable && !builderGaveUp) return { kind: 'fail', error: runError };
  if (!builderGaveUp && attempt.made + 1 < stage.queue.attempts) {
    logEvent(engine.logger, 'STAGE_RETRY', logContext(run), { stage: stage.name, attempt: attempt.made + 1, of: stage.queue.attempts, reason: runError.message }, 'warn');
    return { kind: 'retry', error };
  }
  if (stage.onExhausted === 'fail') return { kind: 'fail', error: runError };
  return { kind: 'park', park: { ...exhausted(stage, error, runError), candidate: run.candidate } };
}

/**
 * Why a person is asked once a stage's attempts are spent: the builder gave up; the provider refused every
 * attempt as too many requests (nothing ran, so trying the same payload later is safe); or an execution failed
 * in a way that may or may not have run it.
 */
function exhausted(stage: StageDefinition, error: unknown, runError: RunError): Pick<ParkRequest, 'why' | 'issues'> {
  const building = stage.name === 'build';
  const code = building ? 'builder_error' : 'execution_error';
  const issues: ParkRequest['issues'] = [{ path: '', code, message: runError.message, severity: 'blocking', suggestion: 'Retry once the service is healthy, or reject the run.' }];
  if (!building && isThrottledError(error)) {
    const question = `The provider refused every attempt as too many requests (${runError.message}); nothing ran. Try again later, or reject the run.`;
    return { why: { reason: 'provider_throttled', kind: 'error_recovery', checkpoint: 'error_recovery', question }, issues };
  }
  const question = `The ${stage.name} stage failed (${runError.message}). Retry, edit, or reject the run.`;
  return { why: { reason: building ? 'builder_failed' : 'execution_uncertain', kind: 'error_recovery', checkpoint: 'error_recovery', question }, issues };
}

function toRunError(error: unknown, stage: StageDefinition): RunError {
  if (isVettedError(error)) {
    return { code: error.code, message: error.message, stage: stage.name, ...(error.field ? { field: error.field } : {}) };
  }
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error), stage: stage.name };
}

/** The outcome as a move bound to this visit, committed; undefined when the run had left the visit. */
function commitOutcome(engine: Engine, stage: StageDefinition, run: RunRow, outcome: StageOutcome, ledger: VisitLedger, startedAt: number, continues: boolean): Promise<RunRow | undefined> {
  const move = moveFor(stage, run, outcome, ledger, startedAt, continues);
  return move ? commit(engine, move) : Promise.resolve(undefined);
}

function moveFor(stage: StageDefinition, run: RunRow, outcome: StageOutcome, ledger: VisitLedger, startedAt: number, continues: boolean): Move | undefined {
  const atVisit = { run, actor: `worker:${stage.name}`, ledger: ledger.deferredRecord() };
  switch (outcome.kind) {
    case 'advance': {
      const durationMs = Math.round((performance.now() - startedAt) * 100) / 100;
      return { kind: 'advance', ...atVisit, set: outcome.set, data: { ...outcome.data, stage: stage.name, durationMs }, ...(continues ? { continues } : {}) };
    }
    case 'park':
      return { kind: 'park', ...atVisit, park: outcome.park };
    case 'complete':
      return { kind: 'complete', ...atVisit, result: outcome.result };
    case 'fail':
      return { kind: 'fail', ...atVisit, error: outcome.error };
    case 'superseded':
      return undefined;
    default:
      return assertNever(outcome, 'stage outcome');
  }
}
