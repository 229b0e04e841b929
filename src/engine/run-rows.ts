/**
 * A run as the engine's RunStore port sees it: the rows it reads and writes, owned here, not by any database. The
 * PostgreSQL schema (src/db/schema) is checked against these types, so a column that drifts from them fails to
 * compile there, and the engine, the channels and the services depend on this file alone.
 */
import type {
  CandidatePayload,
  ExecutionResult,
  GenerationRequest,
  PendingReview,
  PolicySpec,
  RequestBundle,
  RunError,
  RunEventType,
  RunStatus,
  StageName,
  ValidationIssue,
} from '../generated/contracts.ts';

/** Reasons a run is sent back to validate for a person to look again (runs.recheck). */
export type RecheckReason = 'schema_changed';

/** The small half of a run: what a stage move changes and the small fields beside it. */
export interface RunHotRow {
  id: string;
  createdAt: Date;
  tenantId: string;
  traceId: string;
  threadId: string;
  requestKey: string | null;
  userId: string | null;
  sessionId: string | null;
  builder: string;
  provider: string;
  policy: PolicySpec;
  /** Set once, by the extract stage. */
  model: string | null;
  /** The model-schema cache key the extract stage resolved (version id or content hash). */
  schemaKey: string | null;
  schemaHash: string | null;
  executionSeq: number;
  /** Edits people made in reviews; the assembler merges them over the request's own. */
  reviewEdits: Record<string, unknown>;
  /** Hash of the payload a person approved or wrote; require_human does not ask again for it. */
  approvedPayloadHash: string | null;
  /** Why validate must ask a person whatever the gate's other rules say (cleared by validate's move). */
  recheck: RecheckReason | null;
  pausedFrom: RunStatus | null;
  error: RunError | null;
  /** When the tenant's retention purged the run's documents; the audit skeleton stays. */
  purgedAt: Date | null;
  pendingReview: PendingReview | null;
  pendingReviewId: string | null;
  /** When the current review was raised; the pending queue is served oldest first. */
  parkedAt: Date | null;
  reviewExpiresAt: Date | null;
  /** The person working the pending review (a lease: claimExpiresAt). */
  claimedBy: string | null;
  claimExpiresAt: Date | null;
  /** The reviewer (`rv_…`) the pending review is assigned to: by the team's policy or by a holder of reviews:assign. */
  assignedTo: string | null;
  /** Who put the pending review out of their own queue until when: actor → ISO time (others still see it). */
  snoozes: Record<string, string>;
  completedAt: Date | null;
  stageStartedAt: Date | null;
  updatedAt: Date;
  /** Bumped by every stage claim; stage jobs carry it so a stale job recognises itself. */
  attempt: number;
  stage: StageName;
  status: RunStatus;
}

/** The large documents of a run, one per kind, each written by the move that produced it. */
export const RUN_DOCUMENT_KINDS = ['request', 'bundle', 'candidate', 'issues', 'result'] as const;
export type RunDocumentKind = (typeof RUN_DOCUMENT_KINDS)[number];

/** A run's documents as the engine reads them: a kind never written reads as its empty value. */
export interface RunDocuments {
  /** The request as received, secrets redacted. */
  request: GenerationRequest;
  bundle: RequestBundle | null;
  candidate: CandidatePayload | null;
  issues: ValidationIssue[];
  /** The provider's outcome (its output). */
  result: ExecutionResult | null;
}

/** A run as the engine sees it: the small row and its documents. */
export type RunRow = RunHotRow & RunDocuments;

/** What a store fills in when a new run leaves it out: clocks, counters, and every field that may be empty. */
type DefaultedOnInsert = 'createdAt' | 'updatedAt' | 'executionSeq' | 'reviewEdits' | 'attempt' | 'snoozes';
type NullableKeys<T> = { [K in keyof T]: null extends T[K] ? K : never }[keyof T];
type OptionalOnInsert = DefaultedOnInsert | NullableKeys<RunHotRow>;

/** A run to insert: the required small fields, the request, and any other document already known. */
export type NewRunRow = Omit<RunHotRow, OptionalOnInsert> & { [K in OptionalOnInsert]?: RunHotRow[K] | undefined } &
  Pick<RunDocuments, 'request'> & Partial<Omit<RunDocuments, 'request'>>;

/** One entry of a run's append-only audit trail. */
export interface RunEventRow {
  id: bigint;
  runId: string;
  tenantId: string;
  type: RunEventType;
  actor: string;
  at: Date;
  data: Record<string, unknown>;
  traceId: string;
  threadId: string;
}

/** A decision a person made on a review, kept forever: who, when, the raw body and what it meant. */
export interface DecisionRow {
  id: bigint;
  runId: string;
  tenantId: string;
  reviewId: string;
  actor: string;
  action: string;
  /** The body exactly as received (secrets redacted). */
  raw: Record<string, unknown>;
  /** What Vetted made of it: the route taken, the resulting status. */
  parsed: Record<string, unknown>;
  edits: Record<string, unknown> | null;
  override: boolean;
  /** The review as it was when this decision was made, so a decided review stays readable. */
  review: PendingReview | null;
  at: Date;
}

export type ExecutionStatus = 'started' | 'succeeded' | 'failed';

/** One row of the idempotency ledger: a step with a row is never started a second time. */
export interface ExecutionRow {
  runId: string;
  step: string;
  status: ExecutionStatus;
  provider: string;
  payloadHash: string;
  predictionId: string | null;
  result: ExecutionResult | null;
  startedAt: Date;
  finishedAt: Date | null;
}
