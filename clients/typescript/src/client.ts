/**
 * The client: openapi-fetch over the generated types (every operation of the API, typed, as `client.api`),
 * with the API key sent as the API expects it (`Authorization: Bearer vt_…`), and helpers for the main flows
 * that return the answer's data or throw a {@link VettedApiError} carrying the API's problem (code, field).
 */
import createClient, { type Client } from 'openapi-fetch';
import { ndjsonRecords, type AuditRecord } from './audit.ts';
import { VettedApiError, VettedClientError, asProblem, isVettedClientError } from './errors.ts';
import { followRunEvents, type FollowRunOptions, type RunEventSource } from './follow-run.ts';
import type { paths } from './generated/openapi.ts';
import {
  isTerminalStatus,
  type DecisionBody, type DecisionResult, type PendingReviewItem, type PendingReviewsPage, type PendingReviewsQuery,
  type BulkDecisionResults, type ReviewAssignment, type Run, type RunEvent, type SubmitRunBody, type SubmittedRun,
} from './types.ts';

export interface VettedClientOptions {
  /** Where the API listens, without the `/api` prefix: `http://localhost:3000`. */
  baseUrl: string;
  /** An API key from `vetted keys create` (`vt_<id>.<secret>`). */
  apiKey: string;
  /** A fetch to use instead of the global one (a proxy agent, a test double, a tracing wrapper). */
  fetch?: (input: Request) => Promise<Response>;
  /** Extra headers for every call (a tracing header, a user agent). */
  headers?: Record<string, string>;
}

/** What a reviewer decides, bound by {@link VettedClient.decideReview} to the review, payload and output they saw. */
export type ReviewDecision = Omit<DecisionBody, 'reviewId' | 'payloadHash' | 'outputHash'>;

/** The review as the reviewer was shown it: an edit of the output (edit_text) also needs the output's hash. */
export type ShownReview = Pick<PendingReviewItem, 'runId' | 'reviewId' | 'payloadHash'> & { outputHash?: string | null };

export interface VettedClient {
  /** Every operation in the API's OpenAPI document, typed: `client.api.GET('/api/runs/{id}', …)`. */
  readonly api: Client<paths>;
  /** POST /api/runs. The run is stored before this answers; `created` is false when the requestKey matched one. */
  submitRun(request: SubmitRunBody, init?: CallInit): Promise<SubmittedRun>;
  /** GET /api/runs/:id. */
  getRun(runId: string, init?: CallInit): Promise<Run>;
  /** GET /api/reviews/pending: the tenant's pending reviews, oldest first, one page. */
  listPendingReviews(query?: PendingReviewsQuery, init?: CallInit): Promise<PendingReviewsPage>;
  /**
   * POST /api/runs/:id/decision for a review as the reviewer saw it: the reviewId and payloadHash (and, for
   * edit_text, the outputHash) come from the review, so a decision is refused (409 PAYLOAD_HASH_MISMATCH /
   * REVIEW_STALE) if the payload, the output or the review changed since.
   */
  decideReview(review: ShownReview, decision: ReviewDecision, init?: CallInit): Promise<DecisionResult>;
  /** POST /api/runs/:id/decision with a body you assemble yourself. */
  decide(runId: string, decision: DecisionBody, init?: CallInit): Promise<DecisionResult>;
  /**
   * POST /api/reviews/:id/assign: give a pending review to a person (`rv_…`), reassign it, delegate one assigned
   * to you, or take the assignment away (null). Needs reviews:assign; 409 ASSIGNMENT_CONFLICT when it changed meanwhile.
   */
  assignReview(reviewId: string, reviewer: string | null, options?: { reason?: string } & CallInit): Promise<ReviewAssignment>;
  /** POST /api/reviews/:id/snooze: out of your own queue until `until` (others still see it); null brings it back now. */
  snoozeReview(reviewId: string, until: Date | string | null, init?: CallInit): Promise<ReviewAssignment>;
  /**
   * POST /api/reviews/decisions: approve or reject several reviews as you were shown them (each bound to its
   * payloadHash, each its own decision); one result per review, in order.
   */
  decideReviews(items: readonly (ShownReview & { action: 'approve' | 'reject'; reason?: string })[], init?: CallInit): Promise<BulkDecisionResults>;
  /**
   * GET /api/audit (a key with audit:read): the tenant's audit chain in order, each record read as it arrives;
   * `since` keeps the records at or after an instant.
   */
  auditRecords(options?: { since?: Date | string } & CallInit): AsyncGenerator<AuditRecord, void, undefined>;
  /** The run's events over SSE, once each and in order, resuming with Last-Event-ID, until its terminal event. */
  followRun(runId: string, options?: FollowRunOptions): AsyncGenerator<RunEvent, void, undefined>;
}

export interface CallInit {
  signal?: AbortSignal;
}

export function createVettedClient(options: VettedClientOptions): VettedClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const apiKey = checkApiKey(options.apiKey);
  const api = createClient<paths>({
    baseUrl,
    headers: { ...options.headers, authorization: `Bearer ${apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  const events = (runId: string): RunEventSource => ({
    async open(lastEventId, signal) {
      const { response, error, data } = await send('streamRunEvents', signal, () => api.GET('/api/runs/{id}/events', {
        params: { path: { id: runId }, ...(lastEventId === undefined ? {} : { header: { 'last-event-id': lastEventId } }) },
        headers: { accept: 'text/event-stream' },
        parseAs: 'stream',
        signal,
      }));
      if (!response.ok) throw new VettedApiError(response.status, asProblem(error), 'streamRunEvents');
      if (!data) throw new VettedClientError('NETWORK_ERROR', 'streamRunEvents answered without a body');
      return data as ReadableStream<Uint8Array>;
    },
    async eventsIfEnded(lastEventId, signal) {
      const state = unwrap('getRunState', await send('getRunState', signal, () => api.GET('/api/runs/{id}/state', { params: { path: { id: runId } }, signal })));
      return isTerminalStatus(state.run.status) ? state.events.filter((event) => BigInt(event.id) > BigInt(lastEventId)) : undefined;
    },
  });

  const decide: VettedClient['decide'] = async (runId, decision, init = {}) =>
    unwrap('decideReview', await send('decideReview', init.signal, () => api.POST('/api/runs/{id}/decision', { params: { path: { id: runId } }, body: decision, signal: init.signal })));

  // No helper uses `this`: `const { followRun } = client` works as well as `client.followRun(…)`.
  return {
    api,
    async submitRun(request, init = {}) {
      return unwrap('createRun', await send('createRun', init.signal, () => api.POST('/api/runs', { body: request, signal: init.signal })));
    },
    async getRun(runId, init = {}) {
      return unwrap('getRun', await send('getRun', init.signal, () => api.GET('/api/runs/{id}', { params: { path: { id: runId } }, signal: init.signal })));
    },
    async listPendingReviews(query = {}, init = {}) {
      return unwrap('listPendingReviews', await send('listPendingReviews', init.signal, () => api.GET('/api/reviews/pending', { params: { query }, signal: init.signal })));
    },
    decide,
    async decideReview(review, decision, init = {}) {
      const binds = decision.action === 'approve' || decision.action === 'edit';
      if (binds && !review.payloadHash) {
        throw new VettedClientError('INVALID_OPTION', `To ${decision.action} a review, pass the review as you were shown it: its payloadHash is missing`, { field: 'payloadHash' });
      }
      const editsOutput = decision.action === 'edit_text';
      if (editsOutput && !review.outputHash) {
        throw new VettedClientError('INVALID_OPTION', 'To edit_text a review, pass the review as you were shown it: its outputHash is missing (only a response review of a text output has one)', { field: 'outputHash' });
      }
      return decide(review.runId, {
        ...decision,
        reviewId: review.reviewId,
        ...(binds ? { payloadHash: review.payloadHash } : {}),
        ...(editsOutput && review.outputHash ? { outputHash: review.outputHash } : {}),
      }, init);
    },
    async assignReview(reviewId, reviewer, options = {}) {
      const body = { reviewer, ...(options.reason ? { reason: options.reason } : {}) };
      return unwrap('assignReview', await send('assignReview', options.signal, () => api.POST('/api/reviews/{reviewId}/assign', { params: { path: { reviewId } }, body, signal: options.signal })));
    },
    async snoozeReview(reviewId, until, init = {}) {
      const path = { params: { path: { reviewId } }, signal: init.signal };
      if (until === null) return unwrap('unsnoozeReview', await send('unsnoozeReview', init.signal, () => api.DELETE('/api/reviews/{reviewId}/snooze', path)));
      const at = typeof until === 'string' ? until : until.toISOString();
      return unwrap('snoozeReview', await send('snoozeReview', init.signal, () => api.POST('/api/reviews/{reviewId}/snooze', { ...path, body: { until: at } })));
    },
    async decideReviews(items, init = {}) {
      const body = { items: items.map((item) => ({ reviewId: item.reviewId, action: item.action, payloadHash: item.payloadHash, ...(item.reason ? { reason: item.reason } : {}) })) };
      return (unwrap('decideReviews', await send('decideReviews', init.signal, () => api.POST('/api/reviews/decisions', { body, signal: init.signal })))).results;
    },
    async *auditRecords(auditOptions = {}) {
      const { since, signal } = auditOptions;
      const query = { format: 'ndjson' as const, ...(since === undefined ? {} : { since: typeof since === 'string' ? since : since.toISOString() }) };
      const { response, error, data } = await send('exportAudit', signal, () => api.GET('/api/audit', { params: { query }, parseAs: 'stream', signal }));
      if (!response.ok) throw new VettedApiError(response.status, asProblem(error), 'exportAudit');
      if (!data) throw new VettedClientError('NETWORK_ERROR', 'exportAudit answered without a body');
      yield* ndjsonRecords(data as ReadableStream<Uint8Array>);
    },
    followRun(runId, followOptions = {}) {
      return followRunEvents(events(runId), followOptions);
    },
  };
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Runs one call; a failure to reach the API (not the caller's own abort) becomes NETWORK_ERROR. */
async function send<R>(operation: string, signal: AbortSignal | undefined, call: () => Promise<R>): Promise<R> {
  try {
    return await call();
  } catch (error) {
    if (signal?.aborted || isVettedClientError(error)) throw error;
    throw new VettedClientError('NETWORK_ERROR', `${operation}: the API could not be reached: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function unwrap<T>(operation: string, result: FetchResult<T>): T {
  if (!result.response.ok || result.data === undefined) throw new VettedApiError(result.response.status, asProblem(result.error), operation);
  return result.data;
}

function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new VettedClientError('INVALID_OPTION', `baseUrl must be an absolute URL such as http://localhost:3000, got ${JSON.stringify(value)}`, { field: 'baseUrl' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new VettedClientError('INVALID_OPTION', `baseUrl must be http or https, got ${url.protocol}`, { field: 'baseUrl' });
  if (url.search || url.hash) throw new VettedClientError('INVALID_OPTION', 'baseUrl must not carry a query or a fragment', { field: 'baseUrl' });
  return url.href.replace(/\/+$/, '');
}

function checkApiKey(value: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new VettedClientError('INVALID_OPTION', 'apiKey is required: an API key from `vetted keys create`', { field: 'apiKey' });
  if (/[\r\n]/.test(value)) throw new VettedClientError('INVALID_OPTION', 'apiKey must be one line', { field: 'apiKey' });
  return value.trim();
}
