/**
 * The row a move of this process just returned, kept for the stage visit that move opened, so the worker
 * that picks up the next stage's job in the same process starts from it instead of reading the run again.
 *
 * Why this is safe without a read: a visit is (run, stage, attempt), and every move into a stage status
 * opens a new one (attempt + 1, enterStage in src/engine/moves.ts), so a visit is opened exactly once and the move that
 * opened it returned the row as it committed. Whatever happens to the run afterwards (a cancel, a pause)
 * changes its status, and the stage's own move is a compare-and-set on status, stage and attempt: it then
 * finds nothing to move and the job ends as superseded, exactly as if the claim had read the new status.
 * What the shortcut gives up is only the early exit: a cancelled run may do one stage's work for nothing.
 * At execute that early exit matters (a provider call is not free), so there the idempotency ledger takes
 * over the check: it begins a step only while the run is still executing at this attempt (LedgerVisit in
 * src/stages/executor.ts), in the same statement that creates the step.
 *
 * A job picked up by another worker process simply misses and reads; the map is bounded, oldest out first.
 */
import { STAGES } from '../engine/stages.ts';
import type { StageVisit } from '../engine/store.ts';
import type { StageName } from '../generated/contracts.ts';
import type { RunRow } from './schema/index.ts';

/** Stages whose jobs open their visit with the store's claim (the first stage opens with a move instead). */
const SERVED_STAGES: ReadonlySet<StageName> = new Set(STAGES.filter((stage) => stage.opens === 'claim').map((stage) => stage.name));

export class VisitHandoff {
  private readonly rows = new Map<string, RunRow>();

  constructor(private readonly capacity = 1000) {}

  /** Keeps the row a move returned, if it opened a visit this map serves. */
  offer(row: RunRow): void {
    if (!SERVED_STAGES.has(row.stage)) return;
    this.rows.delete(row.id);
    this.rows.set(row.id, row);
    if (this.rows.size > this.capacity) this.rows.delete(this.rows.keys().next().value as string);
  }

  /**
   * The handed-over row when it is exactly this visit; each row is handed over once. A row for another visit
   * of the run (a stale job of an older attempt) stays for the job it belongs to.
   */
  take(visit: StageVisit): RunRow | undefined {
    const row = this.rows.get(visit.runId);
    if (!row || row.stage !== visit.stage || row.attempt !== visit.attempt || row.status !== visit.status) return undefined;
    this.rows.delete(visit.runId);
    return row;
  }

  get size(): number {
    return this.rows.size;
  }
}
