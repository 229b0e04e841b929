/**
 * The review queue: what a reviewer needs to decide, oldest first; one review, pending or decided; claims
 * (a lease, so two people do not work the same review). Handlers parse, authorize and call the services.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../../src/auth/api-keys.ts';
import type { RunRow } from '../../src/engine/run-rows.ts';
import type { DecidedRow } from '../../src/engine/run-queries.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { claimReview, releaseReview } from '../../src/review/claims.ts';
import { getReview, listPendingReviews, queueStats, type PendingQuery as PendingServiceQuery } from '../../src/review/review-queue.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { markSecretFields } from '../plugins/answer-masking.ts';
import {
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
  }, async (request) => pendingPage(system, request, request.query));

  app.get<{ Querystring: ReviewsQuery }>('/api/reviews', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'listReviews',
      tags: ['reviews'],
      summary: 'Reviews by status: decided ones newest first (each decision with its actor, raw reply and interpretation), or the pending queue',
      querystring: reviewsQuery,
      response: { 200: { description: 'status=decided: decided reviews; status=pending: the pending queue', anyOf: [decidedReviewPage, reviewSummaryPage] }, ...commonErrors },
    },
  }, async (request) => {
    const { status, model, since, limit, cursor } = request.query;
    if (status === 'pending') return pendingPage(system, request, { model, limit, cursor });
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
    await markSecretFields(system, reply, [found.run]);
    const view = await reviewView(system, found.run, found.review);
    if (found.state === 'pending') {
      const claim = found.claim && { claimedBy: found.claim.claimedBy, claimExpiresAt: found.claim.claimExpiresAt.toISOString() };
      return { status: 'pending', ...view, claim };
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

async function pendingPage(system: System, request: FastifyRequest, query: PendingQuery) {
  const page = await listPendingReviews(system, principal(request), query);
  return { items: page.items.map((row) => reviewSummary(row, system.clock.now())), nextCursor: page.nextCursor };
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
