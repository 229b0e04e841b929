/**
 * The BullMQ processor over the stage table: one job is one try of one stage visit (visit.ts). A transient
 * error is rethrown so BullMQ retries it with the stage's backoff; everything else ends in a committed move.
 */
import type { Job } from 'bullmq';
import { inRunSpan } from '../observability/tracing.ts';
import { isInFlight } from '../run-states.ts';
import type { StageJob } from './dispatch.ts';
import type { Engine } from './engine.ts';
import { stageNamed } from './stages.ts';
import { openVisit, performVisit } from './visit.ts';

export type JobResult = 'done' | 'stale' | 'superseded';

export async function processStageJob(engine: Engine, job: Job<StageJob>): Promise<JobResult> {
  const stage = stageNamed(job.data.stage);
  const run = await openVisit(engine, stage, job.data);
  if (!run) return recoverHandoff(engine, job.data);
  const attributes = { 'vetted.stage': stage.name, 'vetted.attempt': job.attemptsMade + 1, 'vetted.tenant': run.tenantId, 'vetted.model': run.model ?? 'unknown' };
  const result = await inRunSpan(run, `stage ${stage.name}`, attributes, async (span) => {
    const visit = await performVisit(engine, stage, run, { made: job.attemptsMade, first: isFirstTry(job) });
    span.setAttribute('vetted.outcome', visit.kind === 'done' ? visit.outcome : visit.kind);
    return visit;
  });
  if (result.kind === 'retry') throw result.error;
  return result.kind;
}

/**
 * BullMQ's first try of this job (not a retry, not a stalled job started again): only then may a
 * side-effect-free execution be recorded with the run's move (visit-ledger.ts says why).
 */
function isFirstTry(job: Job<StageJob>): boolean {
  return job.attemptsMade === 0 && (job.attemptsStarted ?? 0) <= 1;
}

/**
 * The job's visit is over. If the run waits at a later visit whose job went missing (a crash between the
 * commit and the enqueue), add that job again: ids are deterministic, so this never duplicates one.
 */
async function recoverHandoff(engine: Engine, job: StageJob): Promise<JobResult> {
  const run = await engine.store.get(job.runId);
  if (run && isInFlight(run.status) && run.attempt > job.attempt) {
    await engine.dispatch.enqueueStage({ runId: run.id, stage: run.stage, attempt: run.attempt });
  }
  return 'stale';
}
