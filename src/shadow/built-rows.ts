/**
 * The run row the build stage's move returned, kept for the shadow job of that build when it runs in the
 * same process, so the job compares exactly that candidate without reading the run again (the stage
 * pipeline does the same between stages: src/db/visit-handoff.ts). A job picked up by another process, or
 * after its row was pushed out, reads the run as before. Each row is taken once.
 */
import { LRUCache } from 'lru-cache';
import type { RunRow } from '../engine/store.ts';

/** Whose rows: keyed by the process's run store (a test system spread into a new object shares it). */
interface RowsOwner {
  store: object;
}

/** Rows kept at most; more than the shadow jobs one process has waiting at any moment under load. */
const CAPACITY = 1000;

const rowsByStore = new WeakMap<object, LRUCache<string, RunRow>>();

function rowsOf(owner: RowsOwner): LRUCache<string, RunRow> {
  let rows = rowsByStore.get(owner.store);
  if (!rows) {
    rows = new LRUCache<string, RunRow>({ max: CAPACITY });
    rowsByStore.set(owner.store, rows);
  }
  return rows;
}

const keyOf = (runId: string, buildAttempt: number) => `${runId}.${buildAttempt}`;

/** Keeps the row the build visit `buildAttempt` ended with, for that build's shadow job. */
export function keepBuiltRow(system: RowsOwner, run: RunRow, buildAttempt: number): void {
  rowsOf(system).set(keyOf(run.id, buildAttempt), run);
}

/** The kept row of that build visit, once; undefined when this process has none. */
export function takeBuiltRow(system: RowsOwner, runId: string, buildAttempt: number): RunRow | undefined {
  const rows = rowsOf(system);
  const key = keyOf(runId, buildAttempt);
  const row = rows.get(key);
  if (row) rows.delete(key);
  return row;
}
