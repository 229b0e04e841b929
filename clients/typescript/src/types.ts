/**
 * Named views of the generated OpenAPI types (src/generated/openapi.ts), for the flows the helpers cover. They
 * are derived, never written by hand, so a change to the API's document shows up here at compile time.
 */
import type { components, operations, paths } from './generated/openapi.ts';

export type { components, operations, paths };

type Schemas = components['schemas'];
type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Run = Schemas['Run'];
export type RunStatus = Schemas['RunStatus'];
export type RunEvent = Schemas['RunEvent'];
export type RunEventType = Schemas['RunEventType'];
export type GenerationRequest = Schemas['GenerationRequest'];
export type Decision = Schemas['Decision'];

/** What POST /api/runs takes: a GenerationRequest naming a catalogued `model` or carrying a `modelSource`. */
export type SubmitRunBody = JsonBody<operations['createRun']['requestBody']>;
/** What POST /api/runs answers (202 for a new run, 200 when the requestKey matched one). */
export type SubmittedRun = JsonBody<operations['createRun']['responses'][202]>;
export type PendingReviewsQuery = NonNullable<operations['listPendingReviews']['parameters']['query']>;
export type PendingReviewsPage = JsonBody<operations['listPendingReviews']['responses'][200]>;
/** One pending review as a reviewer sees it, with the payloadHash a decision must echo. */
export type PendingReviewItem = PendingReviewsPage['items'][number];
export type DecisionBody = JsonBody<NonNullable<operations['decideReview']['requestBody']>>;
export type DecisionResult = JsonBody<operations['decideReview']['responses'][200]>;
/** Who a pending review is assigned to, and your own snooze of it (what assign and snooze answer). */
export type ReviewAssignment = JsonBody<operations['assignReview']['responses'][200]>;
/** POST /api/reviews/decisions: several approvals or rejections, each bound to its payloadHash. */
export type BulkDecisionBody = JsonBody<NonNullable<operations['decideReviews']['requestBody']>>;
/** One result per item, in the order sent: decided, conflict (with the winner) or refused (with why). */
export type BulkDecisionResults = JsonBody<operations['decideReviews']['responses'][200]>['results'];

/** The statuses a run never leaves, and the events that put it there: a follower ends at one of these. */
export const TERMINAL_EVENT_TYPES = ['run.completed', 'run.failed', 'run.cancelled', 'run.expired'] as const satisfies readonly RunEventType[];
export type TerminalEventType = (typeof TERMINAL_EVENT_TYPES)[number];
export const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled', 'expired'] as const satisfies readonly RunStatus[];

export function isTerminalEvent(event: Pick<RunEvent, 'type'>): boolean {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(event.type);
}

export function isTerminalStatus(status: RunStatus): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * The body of a webhook delivery (src/delivery/webhook-delivery.ts): one run event and the run as it stood.
 * Secret-role inputs are masked, as the API masks them.
 */
export interface WebhookEvent {
  /** The run event's id (the same id the event stream uses): deduplicate deliveries on it. */
  id: string;
  type: RunEventType;
  at: string;
  data: Record<string, unknown>;
  run: {
    id: string;
    status: RunStatus;
    stage: Run['stage'];
    model: Run['model'];
    traceId: string;
    threadId: string;
    pendingReview: { reviewId: string; checkpoint: string; reason: string; question: string; expiresAt: string } | null;
    result: Run['result'];
    error: Run['error'];
  };
}
