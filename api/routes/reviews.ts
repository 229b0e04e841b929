/**
 * The review queue: what a reviewer needs to decide, oldest first; one review, pending or decided; claims
 * (a lease, so two people do not work the same review). Handlers parse, authorize and call the services.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { actorOf } from '../../src/auth/api-keys.ts';
import type { RunRow } from '../../src/engine/run-rows.ts';
import type { DecidedRow } from '../../src/engine/run-queries.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { assignReview, setAvailability } from '../../src/review/assignment.ts';
import { decideMany, type BulkItem } from '../../src/review/bulk-decisions.ts';
import { claimReview, releaseReview } from '../../src/review/claims.ts';
import { snoozedUntil, snoozeReview } from '../../src/review/snooze.ts';
import { getReview, listPendingReviews, queueStats, type PendingQuery as PendingServiceQuery } from '../../src/review/review-queue.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { markSecretFields } from '../plugins/answer-masking.ts';
import {
  assignBody, assignmentView, availabilityBody, bulkDecisionAnswer, bulkDecisionBody, reviewerIdParams, reviewerView, snoozeBody,
  claimAnswer, claimBody, commonErrors, decidedReviewPage, pendingReviewsQuery, ref, reviewDetail, reviewIdParams, reviewQueueStats, reviewsQuery, reviewSummaryPage,
} from '../schemas.ts';
import { decisionView, fieldReview, reviewSummary, runLinks, slaView } from '../views.ts';

type PendingQuery = Omit<PendingServiceQuery, 'withTotal'>;
interface ReviewsQuery {
  status: 'pending' | 'decided';
  model?: string;
  since?: string;
  limit: number;
  cursor?: string;
}

const conflicts = { 409: ref('problem') };

export function registerReviewRoutes(app: FastifyInstance, system: System): void {
  app.get<{ Querystring: PendingQuery }>('/api/reviews/pending', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'listPendingReviews',
      tags: ['reviews'],
      summary: "The caller's tenant's pending reviews, oldest first",
      description: 'Filter by checkpoint, model, age, team (policy.team), assignee (`me`: the reviews the caller holds a claim on) or unclaimed.',
      querystring: pendingReviewsQuery,
      response: { 200: reviewSummaryPage, ...commonErrors },
    },
  }, async (request, reply) => pendingPage(system, request, reply, request.query));

  app.get<{ Querystring: ReviewsQuery }>('/api/reviews', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'listReviews',
      tags: ['reviews'],
      summary: 'Reviews by status: decided ones newest first (each decision with its actor, raw reply and interpretation), or the pending queue',
      querystring: reviewsQuery,
      response: { 200: { description: 'status=decided: decided reviews; status=pending: the pending queue', anyOf: [decidedReviewPage, reviewSummaryPage] }, ...commonErrors },
    },
  }, async (request, reply) => {
    const { status, model, since, limit, cursor } = request.query;
    if (status === 'pending') return pendingPage(system, request, reply, { model, limit, cursor });
    const page = await system.runQueries.listDecided(principal(request).tenantId, { model, since: since ? new Date(since) : undefined, limit, cursor });
    return { items: page.items.map(decidedSummary), nextCursor: page.nextCursor };
  });

  app.get<{ Params: { reviewId: string } }>('/api/reviews/:reviewId', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'getReview',
      tags: ['reviews'],
      summary: 'One review, pending or decided: the candidate payload, the issues, each field with its provenance and its diff from the default, and, once decided, every decision on it',
      params: reviewIdParams,
      response: { 200: reviewDetail, ...commonErrors },
    },
  }, async (request, reply) => {
    const found = await getReview(system, principal(request).tenantId, request.params.reviewId);
    markSecretFields(reply, [found.run]);
    const view = await reviewView(system, found.run, found.review);
    if (found.state === 'pending') {
      const claim = found.claim && { claimedBy: found.claim.claimedBy, claimExpiresAt: found.claim.claimExpiresAt.toISOString() };
      return { status: 'pending', ...view, claim, assignment: assignmentOf(system, request, found.run) };
    }
    return { status: found.state, ...view, decisions: found.decisions.map((d) => decisionView(d.decision)) };
  });

  app.get('/api/reviews/stats', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'getReviewStats',
      tags: ['reviews'],
      summary: "The caller's tenant's queue at a glance: pending reviews, the oldest wait, per checkpoint",
      response: { 200: reviewQueueStats, ...commonErrors },
    },
  }, async (request) => queueStats(system, principal(request).tenantId));

  app.post<{ Params: { reviewId: string }; Body: { ttlSeconds?: number } | null }>('/api/reviews/:reviewId/claim', {
    config: { permission: 'reviews:decide' },
    schema: {
      operationId: 'claimReview',
      tags: ['reviews'],
      summary: 'Claim a pending review for a while (default 10 minutes), so nobody else decides it meanwhile',
      description: 'Someone else holding a live claim is 409 REVIEW_CLAIMED, naming them and until when; claiming again extends your own.',
      params: reviewIdParams,
      body: { ...claimBody, examples: [{ ttlSeconds: 600 }] },
      response: { 200: claimAnswer, ...commonErrors, ...conflicts },
    },
  }, async (request) => {
    const caller = principal(request);
    const run = await claimReview(system, { reviewId: request.params.reviewId, tenantId: caller.tenantId, actor: actorOf(caller), ttlSeconds: request.body?.ttlSeconds });
    return claimOf(request, run);
  });

  app.delete<{ Params: { reviewId: string } }>('/api/reviews/:reviewId/claim', {
    config: { permission: 'reviews:decide' },
    schema: { operationId: 'releaseReview', tags: ['reviews'], summary: 'Give a claimed review back', params: reviewIdParams, response: { 200: claimAnswer, ...commonErrors, ...conflicts } },
  }, async (request) => {
    const caller = principal(request);
    const run = await releaseReview(system, { reviewId: request.params.reviewId, tenantId: caller.tenantId, actor: actorOf(caller) });
    return claimOf(request, run);
  });
}

/**
 * Assignment, snooze, bulk decisions and the people reviews go to: each handler parses, authorizes, calls the
 * service (src/review/assignment.ts, snooze.ts, bulk-decisions.ts) and shows the result.
 */
export function registerReviewTeamRoutes(app: FastifyInstance, system: System): void {
  app.post<{ Params: { reviewId: string }; Body: { reviewer: string | null; reason?: string } }>('/api/reviews/:reviewId/assign', {
    config: { permission: 'reviews:assign' },
    schema: {
      operationId: 'assignReview',
      tags: ['reviews'],
      summary: 'Assign a pending review to a person of the tenant, reassign it, delegate one assigned to you, or take the assignment away (reviewer: null)',
      description: 'Needs reviews:assign (admins; other keys created with --assign). The event is review.assigned (first assignment) or review.reassigned ' +
        '(action reassign, delegate or unassign). A person marked unavailable, a submitter or a reviewer of another tenant is refused naming the field reviewer; ' +
        'an assignment changed by someone else meanwhile is 409 ASSIGNMENT_CONFLICT naming who holds it now.',
      params: reviewIdParams,
      body: { ...assignBody, examples: [{ reviewer: 'rv_0a1b2c3d4e5f', reason: 'Ada knows this model' }] },
      response: { 200: assignmentView, ...commonErrors, ...conflicts },
    },
  }, async (request) => {
    const caller = principal(request);
    const run = await assignReview(system, { reviewId: request.params.reviewId, caller, to: request.body.reviewer, reason: request.body.reason });
    return assignmentOf(system, request, run);
  });

  app.post<{ Params: { reviewId: string }; Body: { until?: string; forSeconds?: number } }>('/api/reviews/:reviewId/snooze', {
    config: { permission: 'reviews:decide' },
    schema: {
      operationId: 'snoozeReview',
      tags: ['reviews'],
      summary: 'Snooze a pending review out of your own queue until a time ("not now"); others still see it and its deadline runs on',
      description: 'The review comes back into your queue when the time passes, or at once with DELETE. List it meanwhile with includeSnoozed=true. Event review.snoozed.',
      params: reviewIdParams,
      body: { ...snoozeBody, examples: [{ forSeconds: 3600 }] },
      response: { 200: assignmentView, ...commonErrors, ...conflicts },
    },
  }, async (request) => {
    const { until, forSeconds } = request.body;
    const at = until !== undefined ? new Date(until) : new Date(system.clock.now().getTime() + (forSeconds ?? 0) * 1000);
    const run = await snoozeReview(system, principal(request), request.params.reviewId, at);
    return assignmentOf(system, request, run);
  });

  app.delete<{ Params: { reviewId: string } }>('/api/reviews/:reviewId/snooze', {
    config: { permission: 'reviews:decide' },
    schema: {
      operationId: 'unsnoozeReview', tags: ['reviews'], summary: 'Bring a snoozed review back into your queue now (event review.unsnoozed)',
      params: reviewIdParams, response: { 200: assignmentView, ...commonErrors, ...conflicts },
    },
  }, async (request) => {
    const run = await snoozeReview(system, principal(request), request.params.reviewId, null);
    return assignmentOf(system, request, run);
  });

  app.post<{ Body: { items: BulkItem[] } }>('/api/reviews/decisions', {
    config: { permission: 'reviews:decide', dependencies: ['redis'] },
    schema: {
      operationId: 'decideReviews',
      tags: ['reviews'],
      summary: 'Approve or reject several pending reviews at once, each bound to the payload hash you were shown; one result per item',
      description: 'Each item is its own decision (the same rules as POST /api/runs/:id/decision: payload hash, blocking issues, claims, compare-and-set, audit row). ' +
        'An item someone else decided first is outcome conflict with the winner; one refused (a changed payload, blocking issues) is outcome refused with the code and why. ' +
        'The request itself succeeds (200) whatever the items\' outcomes.',
      body: bulkDecisionBody,
      response: { 200: bulkDecisionAnswer, ...commonErrors },
    },
  }, async (request) => {
    const caller = principal(request);
    const actor = { id: actorOf(caller), canOverride: false, canChangeModel: false };
    return { results: await decideMany(system, { tenantId: caller.tenantId, actor, items: request.body.items }) };
  });

  app.put<{ Params: { reviewerId: string }; Body: { available: boolean } }>('/api/reviewers/:reviewerId/availability', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'setReviewerAvailability', tags: ['reviews'],
      summary: 'Mark a person away (available: false) or back; auto-assignment skips whoever is away',
      description: 'Your own person with any reviewer key; anyone else needs reviews:assign (403 otherwise).',
      params: reviewerIdParams,
      body: { ...availabilityBody, examples: [{ available: false }] },
      response: { 200: reviewerView, ...commonErrors, 404: ref('problem') },
    },
  }, async (request) => reviewerOf(await setAvailability(system, principal(request), request.params.reviewerId, request.body.available)));
}

function assignmentOf(system: System, request: FastifyRequest<{ Params: { reviewId: string } }>, run: RunRow) {
  return { reviewId: request.params.reviewId, runId: run.id, assignedTo: run.assignedTo, snoozedUntil: snoozedUntil(run, actorOf(principal(request)), system.clock.now()) };
}

function reviewerOf(row: { id: string; name: string; role: string; team: string | null; available: boolean }) {
  return { id: row.id, name: row.name, role: row.role, team: row.team, available: row.available };
}

async function pendingPage(system: System, request: FastifyRequest, reply: FastifyReply, query: PendingQuery) {
  const page = await listPendingReviews(system, principal(request), query);
  markSecretFields(reply, page.items);
  const viewer = actorOf(principal(request));
  return { items: page.items.map((row) => reviewSummary(row, system.clock.now(), viewer)), nextCursor: page.nextCursor };
}

async function reviewView(system: System, run: RunRow, review: PendingReview) {
  const schema = run.schemaKey ? await system.models.getSchema(run.schemaKey) : undefined;
  return {
    review,
    sla: slaView(review),
    run: { id: run.id, status: run.status, model: run.model, policy: run.policy, traceId: run.traceId, threadId: run.threadId },
    fields: fieldReview(review, schema),
    links: runLinks(run.id, run.pendingReview),
  };
}

function claimOf(request: FastifyRequest<{ Params: { reviewId: string } }>, run: RunRow) {
  return { reviewId: request.params.reviewId, runId: run.id, claimedBy: run.claimedBy, claimExpiresAt: run.claimExpiresAt?.toISOString() ?? null };
}

function decidedSummary({ decision, run }: DecidedRow) {
  return {
    reviewId: decision.reviewId,
    runId: run.id,
    model: run.model,
    reason: decision.review?.reason ?? null,
    checkpoint: decision.review?.checkpoint ?? null,
    question: decision.review?.question ?? null,
    decision: decisionView(decision),
  };
}
