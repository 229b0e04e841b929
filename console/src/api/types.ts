/**
 * The shapes the console reads. Contracts come from the generated types of schemas/ (one source of truth with
 * the API); the envelopes the routes add (api/views.ts, api/routes/*) are declared here.
 */
import type {
  CandidatePayload, Confidence, CorrectionsReport, ExecutionResult, FieldProvenance, GenerationRequest, Impact, ModelSchema, PendingReview, Person, PolicySpec, ReviewQueueStats, ReviewSla, ReviewTask,
  RoutingCell, Run, RunEvent, TaskReviewRecord, TaskStatus, ValidationIssue,
} from '../../../src/generated/contracts.ts';

export type {
  CandidatePayload, Confidence, CorrectionsReport, ExecutionResult, FieldProvenance, GenerationRequest, Impact, ModelSchema, PendingReview, Person, PolicySpec, ReviewQueueStats, ReviewSla, ReviewTask,
  RoutingCell, Run, RunEvent, TaskReviewRecord, TaskStatus, ValidationIssue,
};

export interface Me {
  tenantId: string;
  role: string;
  actor: string;
  permissions: string[];
  reviewer: { id: string; name: string; team: string | null } | null;
  /** Hosts the console previews media from (VETTED_MEDIA_HOSTS); other URLs are shown as text behind a click. */
  mediaHosts?: string[];
}

export interface ReviewSummary {
  reviewId: string;
  runId: string;
  model: string | null;
  kind: string;
  checkpoint: PendingReview['checkpoint'];
  reason: string;
  question: string;
  summary?: string;
  expectedInput: string;
  team?: string;
  payloadHash: string;
  issues: ValidationIssue[];
  blockingIssues: number;
  claimedBy: string | null;
  claimExpiresAt: string | null;
  /** The person (rv_…) the review is assigned to, or null. */
  assignedTo: string | null;
  /** Until when the signed-in person snoozed it out of their queue (listed only with includeSnoozed), or null. */
  snoozedUntil: string | null;
  createdAt: string;
  expiresAt: string;
  /** Reminder and escalation (policy.sla); null without one. */
  sla?: ReviewSla | null;
}

/** Who a pending review is assigned to, and the signed-in person's own snooze of it (POST /api/reviews/:id/assign, …/snooze). */
export interface Assignment {
  reviewId: string;
  runId: string;
  assignedTo: string | null;
  snoozedUntil: string | null;
}

/** GET /api/reviewers: one of the tenant's people. */
export interface Reviewer {
  id: string;
  name: string;
  role: string;
  team: string | null;
  available: boolean;
}

/** One item of POST /api/reviews/decisions, bound to the payload hash the person was shown. */
export interface BulkDecisionItem {
  reviewId: string;
  action: 'approve' | 'reject';
  payloadHash: string;
  reason?: string;
}

/** One item's result: decided; conflict (someone else first: the winner); refused (why, with the code). */
export interface BulkDecisionResult {
  reviewId: string;
  outcome: 'decided' | 'conflict' | 'refused';
  route?: string;
  code?: string;
  why?: string;
  field?: string;
  winner?: { actor: string; action: string; at: string } | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface FieldReview {
  field: string;
  value: unknown;
  hasDefault: boolean;
  default?: unknown;
  changed: boolean;
  provenance: FieldProvenance | null;
  required: boolean;
}

export interface DecisionView {
  id: string;
  reviewId: string;
  runId: string;
  actor: string;
  action: string;
  raw: Record<string, unknown>;
  parsed: Record<string, unknown>;
  edits: Record<string, unknown> | null;
  override: boolean;
  at: string;
}

export interface ReviewDetail {
  status: 'pending' | 'decided' | 'expired' | 'cancelled';
  review: PendingReview;
  sla?: ReviewSla | null;
  claim?: { claimedBy: string; claimExpiresAt: string } | null;
  /** Pending reviews only. */
  assignment?: Assignment;
  decisions?: DecisionView[];
  run: { id: string; status: Run['status']; model: string | null; policy: PolicySpec; traceId: string; threadId: string };
  fields: FieldReview[];
}

export type CountdownVerdict = { allowed: true; seconds: number } | { allowed: false; because: string };

export interface ReviewForm {
  reviewId: string;
  runId: string;
  model: string | null;
  pending: boolean;
  modelSchema: ModelSchema | null;
  example: { input: Record<string, unknown>; note: string } | null;
  autoApprove: CountdownVerdict;
}

export interface RunState {
  run: Run;
  request: GenerationRequest;
  decisions: DecisionView[];
  executions: { step: string; status: string; provider: string; predictionId: string | null; startedAt: string; finishedAt: string | null }[];
  events: RunEvent[];
}

export interface DecisionAnswer {
  run: Run;
  route?: string;
  [key: string]: unknown;
}

export interface ShadowReport {
  id: string;
  runId: string;
  model: string | null;
  builder: string;
  status: string;
  failureReason: string | null;
  createdAt: string;
  leakedFields: string[];
  fieldsDiffering: number;
  leaks: { path: string; exampleValue?: unknown; match?: string; [key: string]: unknown }[];
  v3Leaks: unknown[];
  diff: { path?: string; type?: string; [key: string]: unknown }[] | Record<string, unknown>;
  v2Payload: Record<string, unknown> | null;
  v3Payload: Record<string, unknown> | null;
}

export interface ShadowSummary {
  generatedAt: string;
  windows: { window: string; [key: string]: unknown }[];
}

/** GET /api/tasks: a page of tasks and how many the filters find in all. */
export interface TaskPage extends Page<ReviewTask> {
  total: number;
}

/** GET /api/task-types: one of the tenant's task types (api/routes/tasks.ts taskTypeResource). */
export interface TaskTypeView {
  name: string;
  description: string | null;
  schema: Record<string, unknown>;
  schemaHash: string;
  autoApprove: RoutingCell[];
  createdAt: string;
  updatedAt: string;
}
