/**
 * The RunStore in memory: the twin of src/db/pg-run-store.ts for the in-process runner (dry runs, replay, the
 * bench's in-process phase) and the fast tests. It keeps the same contract (the conformance suite in
 * test/engine/ runs against both): compare-and-set writes that apply whole or not at all, events in order,
 * a decision row and a ledger record with their write, jsonb columns stored as JSON (a Date inside one comes
 * back as a string), and rows handed out as copies, so no caller can change what is stored.
 */
import { assertNever } from '../errors.ts';
import type { ExecutionResult } from '../generated/contracts.ts';
import type { Clock } from '../ports.ts';
import { IN_FLIGHT_STATUSES } from '../run-states.ts';
import { canonicalHash } from '../util/canonical-hash.ts';
import type {
  Committed,
  DecisionRow,
  EventInput,
  ExecutionRow,
  InsertResult,
  LedgerStore,
  NewRunRow,
  ReviewEventCount,
  RunEventRow,
  RunListQuery,
  RunRow,
  RunStore,
  StoreWrite,
} from './store.ts';

/** The runs columns PostgreSQL keeps as jsonb: stored as JSON text here too. */
const JSON_COLUMNS = new Set(['policy', 'request', 'bundle', 'candidate', 'issues', 'pendingReview', 'reviewEdits', 'result', 'error', 'snoozes']);

const asJson = <T>(value: T): T => (value === null || value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export function createMemoryRunStore(clock: Clock = { now: () => new Date() }): RunStore {
  const runs = new Map<string, RunRow>();
  const events: RunEventRow[] = [];
  const decisions: DecisionRow[] = [];
  const executions = new Map<string, ExecutionRow>();
  let nextEventId = 1n;
  let nextDecisionId = 1n;

  const copy = <T>(value: T): T => structuredClone(value);

  function appendEventRow(run: Pick<RunRow, 'id' | 'tenantId' | 'traceId' | 'threadId'>, event: EventInput): bigint {
    const id = nextEventId++;
    events.push({ id, runId: run.id, tenantId: run.tenantId, type: event.type, actor: event.actor, at: clock.now(), data: asJson(event.data), traceId: run.traceId, threadId: run.threadId });
    return id;
  }

  function insert(row: NewRunRow, event: EventInput): Promise<InsertResult> {
    if (row.requestKey) {
      const existing = [...runs.values()].find((run) => run.tenantId === row.tenantId && run.requestKey === row.requestKey);
      if (existing) return Promise.resolve({ run: copy(existing), created: false });
    }
    const now = clock.now();
    const stored = withDefaults(row, now);
    runs.set(stored.id, stored);
    appendEventRow(stored, event);
    return Promise.resolve({ run: copy(stored), created: true });
  }

  function commit(write: StoreWrite): Promise<Committed | undefined> {
    const run = runs.get(write.runId);
    if (!run || !matches(run, write)) return Promise.resolve(undefined);
    if (write.ledger) {
      const key = ledgerKey(run.id, write.ledger.step);
      if (executions.has(key)) return Promise.resolve(undefined);
      const { step, provider, payloadHash, result } = write.ledger;
      executions.set(key, { runId: run.id, step, status: result.status === 'succeeded' ? 'succeeded' : 'failed', provider, payloadHash, predictionId: null, result: asJson(result), startedAt: clock.now(), finishedAt: clock.now() });
    }
    const priorEvents = write.countPrior && countEvents(run.id, write.countPrior);
    applyWrite(run, write, clock.now());
    let eventId: bigint | null = null;
    if (write.decision) {
      const { event, ...record } = write.decision;
      decisions.push({ id: nextDecisionId++, runId: run.id, tenantId: run.tenantId, ...asJson(record), at: clock.now() });
      if (event) appendEventRow(run, event);
    }
    if (write.event) eventId = appendEventRow(run, write.event);
    return Promise.resolve({ run: copy(run), eventId, ...(priorEvents === undefined ? {} : { priorEvents }) });
  }

  function countEvents(runId: string, count: ReviewEventCount): number {
    return events.filter((event) => event.runId === runId && count.types.includes(event.type) && event.data.reviewId === count.reviewId).length;
  }

  const ledger: LedgerStore = {
    async begin(input) {
      const key = ledgerKey(input.runId, input.step);
      const existing = executions.get(key);
      if (existing) return { fresh: false, row: copy(existing) };
      if (input.runAttempt !== undefined) {
        const run = runs.get(input.runId);
        if (run?.status !== 'executing' || run.attempt !== input.runAttempt) return undefined;
      }
      const row: ExecutionRow = { runId: input.runId, step: input.step, status: 'started', provider: input.provider, payloadHash: input.payloadHash, predictionId: null, result: null, startedAt: clock.now(), finishedAt: null };
      executions.set(key, row);
      return { fresh: true, row: copy(row) };
    },
    async recordHandle(runId, step, predictionId) {
      const row = executions.get(ledgerKey(runId, step));
      if (row) row.predictionId = predictionId;
    },
    async finish(runId, step, result: ExecutionResult) {
      const row = executions.get(ledgerKey(runId, step));
      if (!row) return;
      row.status = result.status === 'succeeded' ? 'succeeded' : 'failed';
      row.result = asJson(result);
      row.finishedAt = clock.now();
    },
    async release(runId, step) {
      const key = ledgerKey(runId, step);
      const row = executions.get(key);
      if (row?.status === 'started' && row.predictionId === null) executions.delete(key);
    },
    async get(runId, step) {
      const row = executions.get(ledgerKey(runId, step));
      return row && copy(row);
    },
    async listForRun(runId) {
      return [...executions.values()].filter((row) => row.runId === runId).sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()).map(copy);
    },
  };

  return {
    insert,
    async get(runId, tenantId) {
      const run = runs.get(runId);
      return run && (tenantId === undefined || run.tenantId === tenantId) ? copy(run) : undefined;
    },
    async list(query) {
      return listRuns([...runs.values()], query).map(copy);
    },
    async claim(visit) {
      const run = runs.get(visit.runId);
      return run && run.stage === visit.stage && run.attempt === visit.attempt && run.status === visit.status ? copy(run) : undefined;
    },
    commit,
    async appendEvent(run, event) {
      appendEventRow(run, event);
    },
    async events(runId, options = {}) {
      const after = options.afterId ?? 0n;
      return events.filter((event) => event.runId === runId && event.id > after).slice(0, options.limit ?? 1000).map(copy);
    },
    async decisions(runId) {
      return decisions.filter((row) => row.runId === runId).map(copy);
    },
    ledger,
  };
}

function ledgerKey(runId: string, step: string): string {
  return `${runId}\u0000${step}`;
}

function matches(run: RunRow, write: StoreWrite): boolean {
  const guard = write.guard ?? {};
  return (
    write.from.includes(run.status) &&
    (guard.stage === undefined || run.stage === guard.stage) &&
    (guard.attempt === undefined || run.attempt === guard.attempt) &&
    (guard.pendingReviewId === undefined || run.pendingReviewId === guard.pendingReviewId) &&
    (guard.claimableBy === undefined || claimable(run, guard.claimableBy)) &&
    (guard.pendingReviewIs === undefined || (run.pendingReview !== null && canonicalHash(run.pendingReview) === canonicalHash(guard.pendingReviewIs))) &&
    (guard.assignedTo === undefined || run.assignedTo === guard.assignedTo.is) &&
    (guard.snoozes === undefined || JSON.stringify(run.snoozes) === JSON.stringify(guard.snoozes)) &&
    // This store knows no people, so it has nobody to pick: an auto-assignment finds no one available.
    write.pickAssignee === undefined
  );
}

function claimable(run: RunRow, by: { actor: string; now: Date }): boolean {
  return run.claimedBy === null || run.claimedBy === by.actor || (run.claimExpiresAt !== null && run.claimExpiresAt < by.now);
}

function applyWrite(run: RunRow, write: StoreWrite, now: Date): void {
  const row = run as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(write.set ?? {})) {
    if (value !== undefined) row[key] = JSON_COLUMNS.has(key) ? asJson(value) : value;
  }
  run.status = write.to;
  run.updatedAt = now;
  if (write.bumpAttempt) run.attempt += 1;
  if (write.bumpExecutionSeq) run.executionSeq += 1;
}

/** A new row as PostgreSQL's column defaults would complete it. */
function withDefaults(row: NewRunRow, now: Date): RunRow {
  const stored: RunRow = {
    requestKey: null, attempt: 0, userId: null, sessionId: null, model: null, schemaKey: null, schemaHash: null,
    bundle: null, candidate: null, issues: [], pendingReview: null, pendingReviewId: null, parkedAt: null,
    approvedPayloadHash: null, recheck: null, claimedBy: null, claimExpiresAt: null, assignedTo: null, snoozes: {}, reviewEdits: {}, executionSeq: 1, result: null, error: null, pausedFrom: null,
    reviewExpiresAt: null, stageStartedAt: null, completedAt: null, createdAt: now, updatedAt: now,
    ...(Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as NewRunRow),
  } as RunRow;
  for (const key of JSON_COLUMNS) {
    const record = stored as unknown as Record<string, unknown>;
    record[key] = asJson(record[key]);
  }
  return stored;
}

function listRuns(all: RunRow[], query: RunListQuery): RunRow[] {
  switch (query.kind) {
    case 'recent':
      return all
        .filter((run) => query.statuses.includes(run.status) && (query.tenantId === undefined || run.tenantId === query.tenantId))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        .slice(0, query.limit);
    case 'reviews_due':
      return all
        .filter((run) => run.pendingReviewId !== null && run.status === 'awaiting_human' && run.reviewExpiresAt !== null && run.reviewExpiresAt <= query.dueBy)
        .slice(0, query.limit);
    case 'in_flight_idle':
      return all
        .filter((run) => run.completedAt === null && run.pendingReviewId === null && (IN_FLIGHT_STATUSES as readonly string[]).includes(run.status) && run.updatedAt < query.idleSince)
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
        .slice(0, query.limit);
    case 'parked_idle':
      return all
        .filter((run) => run.pendingReviewId !== null && run.status === 'awaiting_human' && run.updatedAt < query.idleSince)
        .sort((a, b) => (a.reviewExpiresAt?.getTime() ?? 0) - (b.reviewExpiresAt?.getTime() ?? 0))
        .slice(0, query.limit);
    case 'pending_review':
      return all.filter((run) => run.pendingReviewId === query.reviewId && (query.tenantId === undefined || run.tenantId === query.tenantId)).slice(0, 1);
    default:
      return assertNever(query, 'run list query');
  }
}
