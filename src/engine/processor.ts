/**
 * The BullMQ processor over the stage table: one job is one try of one stage visit (visit.ts), and of the local
 * stages after it when the visit advances into them (local-stages.ts), each in its own span. A transient error
 * is rethrown so BullMQ retries it with the stage's backoff; everything else ends in a committed move.
 */
import type { Job } from 'bullmq';
import { inRunSpan } from '../observability/tracing.ts';
import type { StageJob } from './dispatch.ts';
import type { Engine } from './engine.ts';
import { recoverHandoff, runChain, type ChainVisit } from './local-stages.ts';
import { stageNamed } from './stages.ts';
import { openVisit, performVisit, type VisitResult } from './visit.ts';

export type JobResult = 'done' | 'stale' | 'superseded';

export async function processStageJob(engine: Engine, job: Job<StageJob>): Promise<JobResult> {
  const stage = stageNamed(job.data.stage);
  const run = await openVisit(engine, stage, job.data);
  if (!run) {
    // The job's visit is over: if the run waits at a later visit whose job went missing, it gets it back.
    await recoverHandoff(engine, job.data);
    return 'stale';
  }
  const result = await runChain(engine, { stage, run, attempt: { made: job.attemptsMade, first: isFirstTry(job) } }, (visit) => visitInSpan(engine, visit, job));
  if (result.kind === 'retry') throw result.error;
  return result.kind;
}

/** One visit in its `stage <name>` span, as a stage's own job makes it. */
function visitInSpan(engine: Engine, { stage, run, attempt, continues }: ChainVisit, job: Job<StageJob>): Promise<VisitResult> {
  const attributes = {
    'vetted.stage': stage.name, 'vetted.attempt': attempt.made + 1, 'vetted.tenant': run.tenantId, 'vetted.model': run.model ?? 'unknown',
    ...(stage.name === job.data.stage ? {} : { 'vetted.local_after': job.data.stage }),
  };
  return inRunSpan(run, `stage ${stage.name}`, attributes, async (span) => {
    const visit = await performVisit(engine, stage, run, attempt, { continues });
    span.setAttribute('vetted.outcome', visit.kind === 'done' ? visit.outcome : visit.kind);
    return visit;
  });
}

/**
 * BullMQ's first try of this job (not a retry, not a stalled job started again): only then may a
 * side-effect-free execution be recorded with the run's move (visit-ledger.ts says why).
 */
function isFirstTry(job: Job<StageJob>): boolean {
  return job.attemptsMade === 0 && (job.attemptsStarted ?? 0) <= 1;
}
