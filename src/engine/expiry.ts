/**
 * Expiring the pending reviews whose time is up: every run still awaiting a human whose review was due by
 * `dueBy` gets an `expire` move. Each is a compare-and-set on that review's id, so a review decided a moment
 * earlier (or one that moved on) is left alone.
 */
import { commit } from './commit.ts';
import type { Engine } from './engine.ts';

/** Expired per pass; a bucket with more is read again at once. */
const BATCH = 500;

/** @returns how many runs this call expired. */
export async function expireDueReviews(engine: Engine, dueBy: Date): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await engine.store.list({ kind: 'reviews_due', dueBy, limit: BATCH });
    for (const run of due) if (await commit(engine, { kind: 'expire', run })) expired++;
    if (due.length < BATCH) return expired;
  }
}
