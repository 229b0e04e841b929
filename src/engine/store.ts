/**
 * The RunStore port: where runs, their audit trail, their decisions and their executions live. The engine
 * reads and writes runs only through it, the way BullMQ's Queue reaches Redis only through its backend.
 *
 *   insert   a new run and its run.created event, idempotent on (tenant, requestKey)
 *   get      one run (scoped to a tenant when one is given)
 *   list     the runs a typed query names (the CLI's listing, due reviews, runs whose job went missing)
 *   claim    the run at one stage visit, or nothing when the run has moved on (a stale job)
 *   commit   one compare-and-set write plus its rows (events, decision, ledger record), all or nothing
 *
 * Two implementations hold to one contract (test/engine/run-store.conformance.ts runs against both):
 * PostgreSQL (src/db/pg-run-store.ts), the truth in production, and memory (memory-store.ts), for dry runs,
 * replay, the bench's in-process phase and the fast tests. Nothing here knows about SQL or queues.
 */
import type { DecisionRow, ExecutionRow, NewRunRow, RunEventRow, RunRow } from './run-rows.ts';
import type { PendingReview, RunEventType, RunStatus, StageName } from '../generated/contracts.ts';
import type { ExecutionLedger, LedgerRecord } from '../stages/executor.ts';

export type { DecisionRow, ExecutionRow, NewRunRow, RunEventRow, RunRow };

/** Values a write may set: plain data only (counters and clocks have their own switches). */
export type RunPatch = Partial<Omit<RunRow, 'id' | 'status' | 'tenantId' | 'traceId' | 'threadId' | 'createdAt' | 'updatedAt'>>;

/** One stage visit of a run: every move into a stage status opens a new one (attempt + 1). */
export interface StageVisit {
  runId: string;
  stage: StageName;
  attempt: number;
  status: RunStatus;
}

/** Compare-and-set conditions beyond the status: the stage visit, the pending review, its claim. */
export interface WriteGuard {
  stage?: StageName;
  attempt?: number;
  pendingReviewId?: string;
  /** Nobody else holds a live claim on the pending review: unclaimed, claimed by `actor`, or the lease ran out by `now`. */
  claimableBy?: { actor: string; now: Date };
  /** The pending review is exactly this one (as read): nothing changed it since. */
  pendingReviewIs?: PendingReview;
  /** The pending review is assigned to exactly this person (`is: null`: to nobody). */
  assignedTo?: { is: string | null };
  /** The review's snoozes are exactly these (what the writer read). */
  snoozes?: Record<string, string>;
}

/** How a team's next assignee is chosen (policy.assignment). */
export type AssignmentOrder = 'round_robin' | 'fewest_pending';

/**
 * Assign the pending review to the team's next available person, chosen by the store in the same statement that
 * records it (and that person's turn), with the team's assignments one at a time: two reviews parked at once
 * never both go to the person whose turn it was. Nobody available: the write misses.
 */
export interface AssigneePick {
  tenantId: string;
  team: string;
  order: AssignmentOrder;
}

export interface EventInput {
  type: RunEventType;
  actor: string;
  data: Record<string, unknown>;
}

/** The decision audit row (table `decisions`) a write records when a reviewer's decision caused it. */
export interface DecisionRecord {
  reviewId: string;
  actor: string;
  action: string;
  /** The body as received, secrets redacted. */
  raw: Record<string, unknown>;
  /** What Vetted made of it: the route taken, the resulting status. */
  parsed: Record<string, unknown>;
  edits: Record<string, unknown> | null;
  override: boolean;
  /** The review as it was when decided, kept with the decision so a decided review stays readable. */
  review: PendingReview | null;
  /** Written before the write's own event, so the trail reads the decision, then what it caused. */
  event?: EventInput;
}

/** Events of these types about one review (their data's `reviewId`): what a person's actions on it leave in the trail. */
export interface ReviewEventCount {
  reviewId: string;
  types: readonly RunEventType[];
}

/**
 * One state change as the store applies it (a Move lowered by src/engine/moves.ts). It applies only while the
 * run is in one of `from` and matches `guard`; otherwise nothing is written and commit answers undefined.
 */
export interface StoreWrite {
  runId: string;
  from: readonly RunStatus[];
  to: RunStatus;
  guard?: WriteGuard;
  set?: RunPatch;
  /** Start a new stage visit: attempt + 1 (the job ids of the new visit use it). */
  bumpAttempt?: boolean;
  /** A new ledger step for the next execution (a response review's retry). */
  bumpExecutionSeq?: boolean;
  event?: EventInput;
  /** The reviewer's decision that causes this write, recorded with it. */
  decision?: DecisionRecord;
  /**
   * An execution outcome recorded in the ledger with this write: the record is written only while the run is
   * at the guarded visit, and the write happens only if the record was, so the two commit together or not
   * at all. A miss then means the run left the visit or an earlier attempt recorded the step.
   */
  ledger?: LedgerRecord;
  /**
   * Count the trail's events that match, as it stood before this write (Committed.priorEvents), in the write's
   * own round trip: whether a claim or a decision is a review's first action, without reading the trail after.
   */
  countPrior?: ReviewEventCount;
  /** Sets `assignedTo` to the person the store picks (the event's data gets `assignee`). */
  pickAssignee?: AssigneePick;
  /**
   * The run as the writer read it. A store may use it to return the moved row without reading back the
   * columns the writer already holds (the PostgreSQL store does, when the guard pins this row's visit).
   */
  seen?: RunRow;
}

export interface Committed {
  run: RunRow;
  /** The id of the last event the write recorded (what a webhook delivers); null when it wrote none. */
  eventId: bigint | null;
  /** With StoreWrite.countPrior: how many matching events the trail held before this write. */
  priorEvents?: number;
}

export interface InsertResult {
  run: RunRow;
  /** False when a run with the same tenant and requestKey already existed; that run is returned. */
  created: boolean;
}

/** The runs a caller may ask for, one kind per need (each store answers every kind). */
export type RunListQuery =
  /** Newest first, in these statuses (what `vetted runs` shows). */
  | { kind: 'recent'; statuses: readonly RunStatus[]; tenantId?: string; limit: number }
  /** Awaiting a human whose review was due by `dueBy` (the expiry sweep). */
  | { kind: 'reviews_due'; dueBy: Date; limit: number }
  /** In a stage status, no review pending, unchanged since `idleSince`, oldest change first (the reconciler). */
  | { kind: 'in_flight_idle'; idleSince: Date; limit: number }
  /** Awaiting a human, unchanged since `idleSince`, soonest expiry first (the reconciler). */
  | { kind: 'parked_idle'; idleSince: Date; limit: number }
  /** The run whose pending review this is (at most one). */
  | { kind: 'pending_review'; reviewId: string; tenantId?: string };

/** The idempotency ledger as stores keep it: the executor's port plus the reads the API and control need. */
export interface LedgerStore extends ExecutionLedger {
  get(runId: string, step: string): Promise<ExecutionRow | undefined>;
  listForRun(runId: string): Promise<ExecutionRow[]>;
}

export interface RunStore {
  /** Inserts a run and its run.created event; idempotent on (tenantId, requestKey). */
  insert(row: NewRunRow, event: EventInput): Promise<InsertResult>;
  get(runId: string, tenantId?: string): Promise<RunRow | undefined>;
  list(query: RunListQuery): Promise<RunRow[]>;
  /** The run at exactly this visit (status, stage, attempt), or undefined when it has moved on. */
  claim(visit: StageVisit): Promise<RunRow | undefined>;
  /** Applies one write; undefined when its guard failed (nothing was written). */
  commit(write: StoreWrite): Promise<Committed | undefined>;
  /** Appends an event without changing the run (a refused duplicate review). */
  appendEvent(run: Pick<RunRow, 'id' | 'tenantId' | 'traceId' | 'threadId'>, event: EventInput): Promise<void>;
  /** The run's events in order, after `afterId`. */
  events(runId: string, options?: { afterId?: bigint; limit?: number }): Promise<RunEventRow[]>;
  /** The run's decision audit rows, oldest first. */
  decisions(runId: string): Promise<DecisionRow[]>;
  readonly ledger: LedgerStore;
}
