/** The review queue: what a reviewer needs to decide, oldest first. */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { PendingFilters } from '../../src/db/run-queries.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, pendingReviewsQuery, reviewDetail, reviewIdParams, reviewSummaryPage } from '../schemas.ts';
import { fieldReview, reviewSummary, runLinks } from '../views.ts';
import { markSecretFields } from '../plugins/secret-fields.ts';

export function registerReviewRoutes(app: FastifyInstance, system: System): void {
  app.get<{ Querystring: PendingFilters }>('/api/reviews/pending', {
    config: { permission: 'reviews:read' },
    schema: { tags: ['reviews'], summary: "The caller's tenant's pending reviews, oldest first", querystring: pendingReviewsQuery, response: { 200: reviewSummaryPage, ...commonErrors } },
  }, async (request) => {
    const page = await system.runQueries.listPendingReviews(principal(request).tenantId, request.query, system.clock.now());
    return { items: page.items.map(reviewSummary), nextCursor: page.nextCursor };
  });

  app.get<{ Params: { reviewId: string } }>('/api/reviews/:reviewId', {
    config: { permission: 'reviews:read' },
    schema: {
      tags: ['reviews'],
      summary: 'One pending review: the candidate payload, the issues, each field with its provenance and its diff from the default',
      params: reviewIdParams,
      response: { 200: reviewDetail, ...commonErrors },
    },
  }, async (request, reply) => {
    const row = await system.runQueries.findByReviewId(principal(request).tenantId, request.params.reviewId);
    if (!row?.pendingReview) {
      throw new VettedError('REVIEW_NOT_FOUND', `No pending review ${request.params.reviewId} (it may have been decided or expired)`, { field: 'reviewId' });
    }
    const schema = row.schemaKey ? await system.models.getSchema(row.schemaKey) : undefined;
    await markSecretFields(system, reply, [row]);
    return {
      review: row.pendingReview,
      run: { id: row.id, status: row.status, model: row.model, policy: row.policy, traceId: row.traceId, threadId: row.threadId },
      fields: fieldReview(row.pendingReview, schema),
      links: runLinks(row.id, row.pendingReview),
    };
  });
}

