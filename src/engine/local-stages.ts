/**
 * Local stages: when a visit ends in `advance` and the next stage may run locally, the job that made the visit
 * goes on to the next stage itself, in order, instead of adding that stage's job to its queue. A queue hop
 * costs a BullMQ job (an add, a fetch and a finish, each a Redis script) and a wait; the pure stages take
 * well under a millisecond of CPU, so the hop was most of their cost.
 *
 * Nothing the engine guarantees changes. Every stage's outcome is still its own move through commit() (its
 * documents, its event, its metrics, its trace span); a chained visit opens like any other (the store's claim
 * on the visit the advance created), so a run that was cancelled or paused in between is left alone. A crash
 * resumes from the last commit: the job that carried the chain is retried by BullMQ, finds its own visit over
 * and adds the job of the visit the run waits at (processor.ts), and the reconciler covers a job lost for good.
 * The stages that run locally are deterministic, so a visit that was under way and runs again is harmless.
 *
 * Which stages: the stage table says which may (stages.ts, `local`), the configuration which do
 * (VETTED_LOCAL_STAGES). With none, every stage is a job of its own queue with its own concurrency.
 */
import { isInFlight } from '../run-states.ts';
import type { Engine } from './engine.ts';
import { stageNamed, type StageDefinition, type StageName } from './stages.ts';
import type { RunRow } from './store.ts';
import { openVisit, performVisit, type VisitResult, type VisitTry } from './visit.ts';

/** One visit of a chain, as the caller performs it (the BullMQ processor wraps it in the stage's span). */
export interface ChainVisit {
  stage: StageDefinition;
  run: RunRow;
  attempt: VisitTry;
  /** True when an `advance` from this visit goes on here: its commit then adds no job for the next stage. */
  continues: boolean;
}

export type PerformChainVisit = (visit: ChainVisit) => Promise<VisitResult>;

/**
 * The stage after `stage` when this run may run it locally, else undefined: the configuration lists it, the
 * stage table allows it for this run (build: a deterministic builder), and the caller does not hold it.
 */
export function localNext(engine: Engine, stage: StageDefinition, run: RunRow, held: readonly StageName[] = []): StageDefinition | undefined {
  if (!stage.next || held.includes(stage.next)) return undefined;
  const next = stageNamed(stage.next);
  if (!engine.config.localStages.includes(next.name)) return undefined;
  switch (next.local) {
    case 'pure':
      return next;
    case 'deterministic_builder':
      return builderIsDeterministic(engine, run.builder) ? next : undefined;
    case 'never':
      return undefined;
  }
}

function builderIsDeterministic(engine: Engine, name: string): boolean {
  try {
    return engine.adapters.builder(name).deterministic === true;
  } catch {
    // A builder this process does not have: its visit fails in its own job, where that is reported.
    return false;
  }
}

/**
 * Performs a visit and then, while each one advances into a local stage, the next stage's visit in the same
 * job. Answers the first visit's result unless a chained one says more (its own result). A chained visit whose
 * try fails transiently is handed to its stage's queue, which retries it with the stage's attempts and backoff.
 */
export async function runChain(
  engine: Engine,
  first: { stage: StageDefinition; run: RunRow; attempt: VisitTry },
  perform?: PerformChainVisit,
  held: readonly StageName[] = [],
): Promise<VisitResult> {
  const visitOnce: PerformChainVisit = perform ?? ((visit) => performVisit(engine, visit.stage, visit.run, visit.attempt, { continues: visit.continues }));
  let { stage, run, attempt } = first;
  let last: VisitResult | undefined;
  for (;;) {
    const next = localNext(engine, stage, run, held);
    const result = await visitOnce({ stage, run, attempt, continues: next !== undefined });
    if (result.kind === 'retry' && last) {
      await engine.dispatch.enqueueStage({ runId: run.id, stage: stage.name, attempt: run.attempt });
      return last;
    }
    if (result.kind !== 'done' || result.outcome !== 'advance' || !next) return result;
    last = result;
    // The advance just committed created this visit, so no earlier try of it can exist: it is a first try.
    const opened = await openVisit(engine, next, { runId: run.id, attempt: result.run.attempt });
    if (!opened) return result;
    stage = next;
    run = opened;
    attempt = { made: 0, first: true };
  }
}

/**
 * A job found its visit over. If the run waits at a later visit with no job (a crash between a commit and the
 * enqueue, or inside a chain of local stages), add that visit's job: ids are deterministic, so this never
 * duplicates one. True when the run was in flight at a later visit.
 */
export async function recoverHandoff(engine: Engine, job: { runId: string; attempt: number }): Promise<boolean> {
  const run = await engine.store.get(job.runId);
  if (!run || !isInFlight(run.status) || run.attempt <= job.attempt) return false;
  await engine.dispatch.enqueueStage({ runId: run.id, stage: run.stage, attempt: run.attempt });
  return true;
}
