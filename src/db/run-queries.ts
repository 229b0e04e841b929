/**
 * Read-side queries for the API (the RunQueries repository, held by the System): run listings with cursor pagination, resumable runs, and the pending
 * review queue (oldest first). Every query takes the tenant: there is no unscoped read here.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { VettedError } from '../errors.ts';
import { TERMINAL_STATUSES } from '../run-states.ts';
import type { Db } from './client.ts';
import { RUN_SELECTION, toRunRow } from './run-documents.ts';
import { decisions, runs, type RunRow } from './schema/index.ts';
import type { CheckpointDepth, DecidedFilters, DecidedRow, Page, PendingFilters, RunFilters, RunQueries } from '../engine/run-queries.ts';

export type { CheckpointDepth, DecidedFilters, DecidedRow, Page, PendingFilters, RunFilters, RunQueries } from '../engine/run-queries.ts';



interface CursorPosition {
  at: Date;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Dates PostgreSQL and this API can both hold: a forged cursor outside them is bad input, not a 500. */
const CURSOR_RANGE = { min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31) };

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const date = new Date(String(at));
    const time = date.getTime();
    if (typeof at !== 'string' || typeof id !== 'string' || !UUID.test(id) || !(time >= CURSOR_RANGE.min && time <= CURSOR_RANGE.max)) {
      throw new Error('bad cursor');
    }
    return { at: date, id };
  } catch {
    throw new VettedError('INVALID_REQUEST', 'cursor is not one this API returned', { field: 'cursor' });
  }
}

/** Newest first; the cursor is the (createdAt, id) of the last item, so pages never skip or repeat. */
async function listRuns(db: Db, tenantId: string, filters: RunFilters): Promise<Page<RunRow>> {
  const conditions: (SQL | undefined)[] = [
    eq(runs.tenantId, tenantId),
    filters.status?.length ? inArray(runs.status, filters.status) : undefined,
    filters.userId ? eq(runs.userId, filters.userId) : undefined,
    filters.sessionId ? eq(runs.sessionId, filters.sessionId) : undefined,
    filters.model ? or(eq(runs.model, filters.model), sql`${runs.model} like ${`${filters.model}:%`}`) : undefined,
    filters.createdAfter ? gte(runs.createdAt, filters.createdAfter) : undefined,
    filters.createdBefore ? lte(runs.createdAt, filters.createdBefore) : undefined,
  ];
  if (filters.cursor) {
    const { at, id } = decodeCursor(filters.cursor);
    conditions.push(or(lt(runs.createdAt, at), and(eq(runs.createdAt, at), lt(runs.id, id))));
  }
  const rows = (await db.select(RUN_SELECTION).from(runs).where(and(...conditions)).orderBy(desc(runs.createdAt), desc(runs.id)).limit(filters.limit + 1)).map(toRunRow);
  return pageOf(rows, filters.limit, (row) => ({ at: row.createdAt, id: row.id }));
}

/** Runs a session can still resume: not in a terminal state, most recently changed first. */
async function listActiveRuns(db: Db, tenantId: string, scope: { userId?: string; sessionId?: string }, limit = 100): Promise<RunRow[]> {
  const rows = await db
    .select(RUN_SELECTION)
    .from(runs)
    .where(
      and(
        eq(runs.tenantId, tenantId),
        notInArray(runs.status, [...TERMINAL_STATUSES]),
        scope.userId ? eq(runs.userId, scope.userId) : undefined,
        scope.sessionId ? eq(runs.sessionId, scope.sessionId) : undefined,
      ),
    )
    .orderBy(desc(runs.updatedAt))
    .limit(limit);
  return rows.map(toRunRow);
}


/** What a pending-review listing filters on, as SQL conditions (shared by the page and its total). */
function pendingConditions(tenantId: string, filters: Omit<PendingFilters, 'limit' | 'cursor'>, now: Date): (SQL | undefined)[] {
  return [
    eq(runs.tenantId, tenantId),
    // The predicate of the review-queue indexes; the status test then leaves out paused reviews.
    isNotNull(runs.pendingReviewId),
    eq(runs.status, 'awaiting_human'),
    filters.checkpoint ? sql`${runs.pendingReview} ->> 'checkpoint' = ${filters.checkpoint}` : undefined,
    filters.model ? eq(runs.model, filters.model) : undefined,
    filters.team ? sql`${runs.pendingReview} ->> 'team' = ${filters.team}` : undefined,
    filters.claimedBy ? and(eq(runs.claimedBy, filters.claimedBy), gte(runs.claimExpiresAt, now)) : undefined,
    filters.unclaimed ? or(isNull(runs.claimedBy), lt(runs.claimExpiresAt, now)) : undefined,
    filters.assignedTo === undefined ? undefined : filters.assignedTo === 'none' ? isNull(runs.assignedTo) : eq(runs.assignedTo, filters.assignedTo),
    filters.notSnoozedBy === undefined ? undefined : sql`coalesce((${runs.snoozes} ->> ${filters.notSnoozedBy})::timestamptz <= ${now}, true)`,
    filters.minAgeSeconds !== undefined ? lte(runs.parkedAt, new Date(now.getTime() - filters.minAgeSeconds * 1000)) : undefined,
    filters.maxAgeSeconds !== undefined ? gte(runs.parkedAt, new Date(now.getTime() - filters.maxAgeSeconds * 1000)) : undefined,
  ];
}

/** The review queue: runs awaiting a human, oldest review first (served by the partial indexes on pending_review_id). */
async function listPendingReviews(db: Db, tenantId: string, filters: PendingFilters, now: Date): Promise<Page<RunRow>> {
  const conditions = pendingConditions(tenantId, filters, now);
  if (filters.cursor) {
    const { at, id } = decodeCursor(filters.cursor);
    conditions.push(or(sql`${runs.parkedAt} > ${at}`, and(eq(runs.parkedAt, at), sql`${runs.id} > ${id}`)));
  }
  const rows = (await db.select(RUN_SELECTION).from(runs).where(and(...conditions)).orderBy(asc(runs.parkedAt), asc(runs.id)).limit(filters.limit + 1)).map(toRunRow);
  return pageOf(rows, filters.limit, (row) => ({ at: row.parkedAt ?? row.createdAt, id: row.id }));
}

/** How many reviews the same filters find in all (every page, not only this one). */
async function countPendingReviews(db: Db, tenantId: string, filters: Omit<PendingFilters, 'limit' | 'cursor'>, now: Date): Promise<number> {
  const [row] = await db.select({ n: sql<string>`count(*)::text` }).from(runs).where(and(...pendingConditions(tenantId, filters, now)));
  return Number(row?.n ?? 0);
}


async function pendingByCheckpoint(db: Db, tenantId: string): Promise<CheckpointDepth[]> {
  const checkpoint = sql<string>`${runs.pendingReview} ->> 'checkpoint'`;
  const rows = await db
    .select({ checkpoint, n: sql<string>`count(*)::text`, oldest: sql<Date | string | null>`min(${runs.parkedAt})` })
    .from(runs)
    .where(and(eq(runs.tenantId, tenantId), isNotNull(runs.pendingReviewId), eq(runs.status, 'awaiting_human')))
    .groupBy(checkpoint);
  return rows.map((row) => ({ checkpoint: row.checkpoint, pending: Number(row.n), oldestParkedAt: row.oldest === null ? null : new Date(row.oldest) }));
}

async function findByReviewId(db: Db, tenantId: string, reviewId: string): Promise<RunRow | undefined> {
  const [row] = await db.select(RUN_SELECTION).from(runs).where(and(eq(runs.pendingReviewId, reviewId), eq(runs.tenantId, tenantId)));
  return row && toRunRow(row);
}



const decidedColumns = { decision: decisions, run: { id: runs.id, status: runs.status, model: runs.model, traceId: runs.traceId, threadId: runs.threadId } };

/** Every decision on a review, oldest first (a quorum's approvals, re-asks, the decision that closed it). */
async function decisionsOfReview(db: Db, tenantId: string, reviewId: string): Promise<DecidedRow[]> {
  return db
    .select(decidedColumns)
    .from(decisions)
    .innerJoin(runs, eq(runs.id, decisions.runId))
    .where(and(eq(decisions.reviewId, reviewId), eq(decisions.tenantId, tenantId)))
    .orderBy(asc(decisions.at), asc(decisions.id));
}

/** Decisions on the tenant's reviews, newest first, with cursor pagination. */
async function listDecided(db: Db, tenantId: string, filters: DecidedFilters): Promise<Page<DecidedRow>> {
  const conditions: (SQL | undefined)[] = [
    eq(decisions.tenantId, tenantId),
    filters.model ? eq(runs.model, filters.model) : undefined,
    filters.since ? gte(decisions.at, filters.since) : undefined,
  ];
  if (filters.cursor) {
    const { at, id } = decodeCursor(filters.cursor);
    // The cursor's id is the decision's numeric id, written as a uuid-shaped string by encodeDecidedCursor.
    conditions.push(or(lt(decisions.at, at), and(eq(decisions.at, at), lt(decisions.id, decidedIdOf(id)))));
  }
  const rows = await db
    .select(decidedColumns)
    .from(decisions)
    .innerJoin(runs, eq(runs.id, decisions.runId))
    .where(and(...conditions))
    .orderBy(desc(decisions.at), desc(decisions.id))
    .limit(filters.limit + 1);
  return pageOf(rows, filters.limit, (row) => ({ at: row.decision.at, id: decidedCursorId(row.decision.id) }));
}

/** Decision ids are bigints; the cursor carries ids shaped as uuids, so they are written as one. */
function decidedCursorId(id: bigint): string {
  return `00000000-0000-0000-0000-${id.toString(16).padStart(12, '0')}`;
}

function decidedIdOf(cursorId: string): bigint {
  return BigInt(`0x${cursorId.slice(-12)}`);
}

function pageOf<T>(rows: T[], limit: number, position: (row: T) => CursorPosition): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(position(last)) : null };
}

/** The schema key of each of these runs of the tenant (what an answer's masking needs to know). */
async function schemaKeysOfRuns(db: Db, tenantId: string, runIds: readonly string[]): Promise<{ schemaKey: string | null }[]> {
  if (runIds.length === 0) return [];
  return db.select({ schemaKey: runs.schemaKey }).from(runs).where(and(eq(runs.tenantId, tenantId), inArray(runs.id, [...runIds])));
}

/** The API's run listings, bound to one database. */
export function createRunQueries(db: Db): RunQueries {
  return {
    list: (tenantId: string, filters: RunFilters) => listRuns(db, tenantId, filters),
    listActive: (tenantId: string, scope: { userId?: string; sessionId?: string }) => listActiveRuns(db, tenantId, scope),
    listPendingReviews: (tenantId: string, filters: PendingFilters, now: Date) => listPendingReviews(db, tenantId, filters, now),
    countPendingReviews: (tenantId: string, filters: Omit<PendingFilters, 'limit' | 'cursor'>, now: Date) => countPendingReviews(db, tenantId, filters, now),
    pendingByCheckpoint: (tenantId: string) => pendingByCheckpoint(db, tenantId),
    findByReviewId: (tenantId: string, reviewId: string) => findByReviewId(db, tenantId, reviewId),
    decisionsOfReview: (tenantId: string, reviewId: string) => decisionsOfReview(db, tenantId, reviewId),
    listDecided: (tenantId: string, filters: DecidedFilters) => listDecided(db, tenantId, filters),
    schemaKeysOfRuns: (tenantId: string, runIds: readonly string[]) => schemaKeysOfRuns(db, tenantId, runIds),
  };
}
