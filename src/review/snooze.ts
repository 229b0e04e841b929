/**
 * Snooze ("not now"): a person puts a pending review out of their own queue until a time. Everyone else still
 * sees it, its deadline and expiry run on, and it comes back by itself when the time passes (the queue compares
 * the time; nothing has to fire) or at once when the person un-snoozes it. Each is a move with its event.
 */
import { actorOf, type Principal } from '../auth/api-keys.ts';
import { commit } from '../engine/commit.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';
import { runOfPendingReview } from './claims.ts';

/** The furthest a review can be snoozed: 30 days. */
export const MAX_SNOOZE_SECONDS = 30 * 24 * 3600;
/** Snoozes of other people may change between the read and the write; try again this many times. */
const ATTEMPTS = 4;

/** @param until null un-snoozes. @throws VettedError INVALID_REQUEST naming `until`, REVIEW_NOT_FOUND */
export async function snoozeReview(engine: Engine, caller: Principal, reviewId: string, until: Date | null): Promise<RunRow> {
  if (until !== null) assertUntil(until, engine.clock.now());
  const actor = actorOf(caller);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const run = await runOfPendingReview(engine, reviewId, caller.tenantId);
    const moved = await commit(engine, { kind: 'snooze', run, actor, until });
    if (moved) return moved;
  }
  throw new VettedError('DECISION_CONFLICT', `Review ${reviewId} kept changing while it was being snoozed; try again`, { field: 'reviewId' });
}

/** Until when the review is out of this actor's queue, or null when it is in it. */
export function snoozedUntil(run: Pick<RunRow, 'snoozes'>, actor: string, now: Date): string | null {
  const until = run.snoozes[actor];
  return until !== undefined && Date.parse(until) > now.getTime() ? until : null;
}

function assertUntil(until: Date, now: Date): void {
  if (Number.isNaN(until.getTime())) throw new VettedError('INVALID_REQUEST', 'until must be an ISO 8601 time such as 2026-01-31T09:00:00Z', { field: 'until' });
  if (until.getTime() <= now.getTime()) throw new VettedError('INVALID_REQUEST', 'until must be in the future', { field: 'until' });
  if (until.getTime() - now.getTime() > MAX_SNOOZE_SECONDS * 1000) throw new VettedError('INVALID_REQUEST', 'until must be at most 30 days away', { field: 'until' });
}
