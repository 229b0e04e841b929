/**
 * The in-process runner: the stage table run without Redis, over an in-process engine (in-process.ts). It
 * takes the jobs the engine dispatched, oldest first, and performs each visit exactly as the BullMQ
 * processor does (visit.ts), going on to the local stages after it (local-stages.ts); a transient error is
 * tried again at once while the stage's attempts last.
 */
import type { InProcessEngine } from './in-process.ts';
import { runChain } from './local-stages.ts';
import { stageNamed, type StageName } from './stages.ts';
import type { RunRow } from './store.ts';
import { openVisit } from './visit.ts';

export interface RunnerOptions {
  /**
   * Stages whose jobs are left waiting instead of run: `vetted dry-run` holds `execute`, so a run that would
   * execute rests in `executing` with nothing executed. A held stage never runs locally either.
   */
  hold?: readonly StageName[];
}

/** Performs every dispatched stage job (and the jobs they dispatch) until only held ones are left. */
export async function drain(engine: InProcessEngine, options: RunnerOptions = {}): Promise<void> {
  const held = options.hold ?? [];
  for (let job = engine.dispatch.take(held); job; job = engine.dispatch.take(held)) {
    const stage = stageNamed(job.stage);
    for (let made = 0; ; made++) {
      const run = await openVisit(engine, stage, job);
      if (!run) break;
      const result = await runChain(engine, { stage, run, attempt: { made, first: made === 0 } }, undefined, held);
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
