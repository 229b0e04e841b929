/**
 * Runs one stage job: claim the run's stage visit in PostgreSQL, call the stage handler, persist the
 * outcome (compare-and-set + event), then enqueue what comes next. Errors either end the run with a
 * reason (bad input), or rethrow so BullMQ retries with backoff (transient); when the retries are spent
 * the run is failed or handed to a person, never dropped.
 */
import type { Job } from 'bullmq';
import type { RunRow } from '../src/db/schema/index.ts';
import { isVettedError } from '../src/errors.ts';
import type { RunError } from '../src/generated/contracts.ts';
import { logEvent } from '../src/observability/logger.ts';
import { stageDefinition, type StageDefinition } from '../src/pipeline.ts';
import type { StageJobData } from '../src/queue/queues.ts';
import { isInFlight } from '../src/run-states.ts';
import { advanceToStage, completeRun, endRun, logContext, parkRun, type MoveGuard } from '../src/services/run-transitions.ts';
import { triggerShadow } from '../src/shadow/trigger.ts';
import type { System } from '../src/system.ts';
import { STAGE_HANDLERS, type StageOptions, type StageOutcome } from './stage-handlers.ts';

export type JobResult = 'done' | 'stale' | 'superseded';

export async function processStageJob(system: System, job: Job<StageJobData>): Promise<JobResult> {
  const stage = stageDefinition(job.data.stage);
  const run = await system.runs.claimStage({
    runId: job.data.runId,
    stage: stage.name,
    attempt: job.data.attempt,
    status: stage.status,
  });
  if (!run) return recoverHandoff(system, job.data);

  const startedAt = performance.now();
  let outcome = await runHandler(system, job, stage, run, { recordWithMove: isFirstTry(job) });
  let persisted = await persistOutcome(system, run, stage, outcome, performance.now() - startedAt);
  if (!persisted && 'ledger' in outcome && outcome.ledger) {
    // The move that was to record the execution missed: the run left the visit, or an earlier attempt
    // recorded this step. Run the stage again with the ledger on its own, whose answer tells which.
    outcome = await runHandler(system, job, stage, run, { recordWithMove: false });
    persisted = await persistOutcome(system, run, stage, outcome, performance.now() - startedAt);
  }
  const durationMs = performance.now() - startedAt;
  system.metrics.stageDuration.observe({ stage: stage.name, outcome: outcome.kind }, durationMs / 1000);
  if (!persisted) {
    logEvent(system.logger, 'STAGE_STALE_JOB', logContext(run), { stage: stage.name, reason: 'the run changed while the stage ran' });
    return 'superseded';
  }
  // Shadow mode (V2 beside V3) once the candidate is stored; detached, so it never holds up or fails this run.
  if (stage.name === 'build' && outcome.kind === 'advance') void triggerShadow(system, { run: persisted, buildAttempt: run.attempt });
  return 'done';
}

/**
 * BullMQ's first try of this job (not a retry, not a stalled job started again). Only a first try may leave a
 * side-effect-free execution to be recorded by the run's move: a later try may find the step recorded by an
 * earlier one, and must ask the ledger before running anything (executor.ts, executeUnrecorded).
 */
function isFirstTry(job: Job<StageJobData>): boolean {
  return job.attemptsMade === 0 && (job.attemptsStarted ?? 0) <= 1;
}

async function runHandler(system: System, job: Job<StageJobData>, stage: StageDefinition, run: RunRow, options: StageOptions): Promise<StageOutcome> {
  try {
    return await STAGE_HANDLERS[stage.name](system, run, options);
  } catch (error) {
    return outcomeForError(system, job, stage, run, error);
  }
}

/** Bad input ends the run now; anything transient is retried until BullMQ's attempts are spent. */
function outcomeForError(system: System, job: Job<StageJobData>, stage: StageDefinition, run: RunRow, error: unknown): StageOutcome {
  const runError = toRunError(error, stage);
  const attempts = job.opts.attempts ?? 1;
  // A builder that gave up (its SDK already retried: timeout, 429, 5xx, refusal, bad JSON) goes to a person.
  const builderGaveUp = isVettedError(error) && error.code === 'BUILDER_FAILED';
  if (isVettedError(error) && !error.retryable && !builderGaveUp) return { kind: 'fail', error: runError };
  if (!builderGaveUp && job.attemptsMade + 1 < attempts) {
    logEvent(system.logger, 'STAGE_RETRY', logContext(run), { stage: stage.name, attempt: job.attemptsMade + 1, of: attempts, reason: runError.message }, 'warn');
    throw error;
  }
  if (stage.name === 'build' || stage.name === 'execute') {
    // A builder or provider that keeps failing is a question for a person, not a reason to drop the run.
    return {
      kind: 'park',
      park: {
        park: {
          reason: stage.name === 'build' ? 'builder_failed' : 'execution_uncertain',
          kind: 'error_recovery',
          checkpoint: 'error_recovery',
          question: `The ${stage.name} stage failed (${runError.message}). Retry, edit, or reject the run.`,
        },
        issues: [{ path: '', code: stage.name === 'build' ? 'builder_error' : 'execution_error', message: runError.message, severity: 'blocking', suggestion: 'Retry once the service is healthy, or reject the run.' }],
        candidate: run.candidate,
      },
    };
  }
  return { kind: 'fail', error: runError };
}

function toRunError(error: unknown, stage: StageDefinition): RunError {
  if (isVettedError(error)) {
    return { code: error.code, message: error.message, stage: stage.name, ...(error.field ? { field: error.field } : {}) };
  }
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error), stage: stage.name };
}

async function persistOutcome(system: System, run: RunRow, stage: StageDefinition, outcome: StageOutcome, durationMs: number) {
  const guard: MoveGuard = {
    from: [stage.status],
    guard: { stage: stage.name, attempt: run.attempt },
    actor: `worker:${stage.name}`,
  };
  switch (outcome.kind) {
    case 'advance': {
      if (!stage.next) throw new Error(`stage ${stage.name} has no next stage to advance to`);
      const data = { ...outcome.data, stage: stage.name, durationMs: Math.round(durationMs * 100) / 100 };
      return advanceToStage(system, run, stage.next, guard, { set: outcome.set, data });
    }
    case 'park':
      return parkRun(system, run, outcome.park, { ...guard, ledger: outcome.ledger });
    case 'complete':
      return completeRun(system, run, outcome.result, { ...guard, ledger: outcome.ledger });
    case 'fail':
      return endRun(system, run, 'failed', outcome.error, { ...guard, ledger: outcome.ledger });
    case 'superseded':
      return undefined;
  }
}

/**
 * The job's visit is over. If the run waits at a later visit whose job went missing (a crash between the
 * commit and the enqueue), add that job again: ids are deterministic, so this never duplicates one.
 */
async function recoverHandoff(system: System, data: StageJobData): Promise<JobResult> {
  const run = await system.runs.get(data.runId);
  if (run && isInFlight(run.status) && run.attempt > data.attempt) {
    await system.queues.enqueueStage({ runId: run.id, stage: run.stage, attempt: run.attempt });
  }
  return 'stale';
}
