/**
 * The in-process runner: the stage table run without Redis, over an in-process engine (in-process.ts). It
 * takes the jobs the engine dispatched, oldest first, and performs each visit exactly as the BullMQ
 * processor does (visit.ts); a transient error is tried again at once while the stage's attempts last.
 */
import type { InProcessEngine } from './in-process.ts';
import { stageNamed, type StageName } from './stages.ts';
import type { RunRow } from './store.ts';
import { openVisit, performVisit } from './visit.ts';

export interface RunnerOptions {
  /**
   * Stages whose jobs are left waiting instead of run: `vetted dry-run` holds `execute`, so a run that would
   * execute rests in `executing` with nothing executed.
   */
  hold?: readonly StageName[];
}

/** Performs every dispatched stage job (and the jobs they dispatch) until only held ones are left. */
export async function drain(engine: InProcessEngine, options: RunnerOptions = {}): Promise<void> {
  for (let job = engine.dispatch.take(options.hold); job; job = engine.dispatch.take(options.hold)) {
    const stage = stageNamed(job.stage);
    for (let made = 0; ; made++) {
      const run = await openVisit(engine, stage, job);
      if (!run) break;
      const result = await performVisit(engine, stage, run, { made, first: made === 0 });
      if (result.kind !== 'retry') break;
    }
  }
}

/** Drains the engine and answers the run as it rests (completed, parked, failed, or held before a stage). */
export async function runToRest(engine: InProcessEngine, runId: string, options: RunnerOptions = {}): Promise<RunRow> {
  await drain(engine, options);
  const run = await engine.store.get(runId);
  if (!run) throw new Error(`run ${runId} vanished from the in-process store`);
  return run;
}
