/**
 * The tenant's people: everyone with a reviewer key sees who reviews can be assigned to; a holder of
 * reviewers:manage (admin) also sees how each is reached, adds people and removes them (their keys are revoked,
 * their row stays for the audit trail). The CLI's `vetted reviewers` goes through these while `vetted api
 * --embedded` holds the store. Availability (PUT /api/reviewers/:id/availability) lives with assignment.
 */
import type { FastifyInstance } from 'fastify';
import { addReviewerFor, listReviewersFor, removeReviewer, type NewReviewerBody } from '../../src/auth/reviewer-admin.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, newReviewerBody, ref, reviewerAdminView, reviewerIdParams, reviewerListItem, reviewerRemoved, reviewersQuery } from '../schemas.ts';

/** `forgetVerifiedKeys` drops this process's cache of verified keys, so a removed person's key is refused on its next request here. */
export function registerReviewerRoutes(app: FastifyInstance, system: System, forgetVerifiedKeys: () => void): void {
  app.get<{ Querystring: { tenantId?: string } }>('/api/reviewers', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'listReviewers', tags: ['reviews'], summary: "The tenant's people, by name: who reviews can be assigned to, and who is away",
      description: 'Removed people are not listed. A key with reviewers:manage (admin) also sees tenantId, slackUserId, email and createdAt.',
      querystring: reviewersQuery,
      response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: reviewerListItem } } }, ...commonErrors },
    },
  }, async (request) => {
    const caller = principal(request);
    const items = await listReviewersFor(system.reviewers, caller, request.query.tenantId);
    if (caller.permissions.has('reviewers:manage')) return { items };
    return { items: items.map(({ id, name, role, team, available }) => ({ id, name, role, team, available })) };
  });

  app.post<{ Body: NewReviewerBody }>('/api/reviewers', {
    config: { permission: 'reviewers:manage' },
    schema: {
      operationId: 'addReviewer', tags: ['reviews'],
      summary: "Add a person to the caller's tenant (admin); give them a key with POST /api/keys {reviewerId}",
      description: 'A Slack user id already another person of the tenant is 400 naming slackUserId.',
      body: newReviewerBody,
      response: { 201: reviewerAdminView, ...commonErrors },
    },
  }, async (request, reply) => reply.code(201).send(await addReviewerFor(system.reviewers, principal(request), request.body)));

  app.delete<{ Params: { reviewerId: string } }>('/api/reviewers/:reviewerId', {
    config: { permission: 'reviewers:manage' },
    schema: {
      operationId: 'removeReviewer', tags: ['reviews'],
      summary: 'Remove a person of the tenant (admin): their keys are revoked, their Slack id and email cleared; decisions they made keep their name',
      description:
        'Refused while pending reviews are assigned to them (409 REVIEWER_HAS_REVIEWS: reassign those first), and when one of their keys is ' +
        "the tenant's last admin key in force (409 LAST_ADMIN_KEY). Their keys stop working at once on this API process, within 10 seconds on others.",
      params: reviewerIdParams,
      response: { 200: reviewerRemoved, ...commonErrors, 404: ref('problem'), 409: ref('problem') },
    },
  }, async (request) => {
    const removed = await removeReviewer(system.reviewers, principal(request).tenantId, request.params.reviewerId);
    forgetVerifiedKeys();
    return removed;
  });
}
