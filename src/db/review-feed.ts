/**
 * The tenant-wide review feed: the audit events that change what a reviewer's queue shows (a review raised,
 * claimed, released, decided or re-asked, and a parked run cancelled or expired). The reviewer console's live
 * queue reads it through GET /api/reviews/events. Reads only; run_events stays the one source of truth.
 */
import { and, asc, eq, gt, inArray, like, or, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { runEvents, type RunEventRow } from './schema/index.ts';

/** Run events (besides every `review.*` one) that take a review off the queue. */
const QUEUE_LEAVING = ['run.cancelled', 'run.expired'] as const;

export interface ReviewFeed {
  /** The newest event id of any tenant (0 when there is none): where a new stream starts. */
  newestEventId(): Promise<bigint>;
  /** The tenant's review events after `afterId`, oldest first, at most `limit`. */
  reviewEventsAfter(tenantId: string, afterId: bigint, limit: number): Promise<RunEventRow[]>;
}

export function createReviewFeed(db: Db): ReviewFeed {
  return {
    async newestEventId() {
      const [row] = await db.select({ newest: sql<string | null>`max(${runEvents.id})::text` }).from(runEvents);
      return BigInt(row?.newest ?? '0');
    },
    reviewEventsAfter(tenantId, afterId, limit) {
      // The primary key walks the ids after `afterId`; a live stream only ever reads the few newest ones.
      return db
        .select()
        .from(runEvents)
        .where(and(gt(runEvents.id, afterId), eq(runEvents.tenantId, tenantId), or(like(runEvents.type, 'review.%'), inArray(runEvents.type, [...QUEUE_LEAVING]))))
        .orderBy(asc(runEvents.id))
        .limit(limit);
    },
  };
}
