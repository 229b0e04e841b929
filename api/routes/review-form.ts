/**
 * What the reviewer console asks besides the review itself: who the caller is (GET /api/me: the sign-in check
 * and which actions to offer), and a review's form (GET /api/reviews/:reviewId/form: the run's ModelSchema, the
 * model's published example, labelled as never used, and whether the card may count down to an approval).
 */
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../src/auth/api-keys.ts';
import { loadReviewForm } from '../../src/review/review-form.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { markSecretFields } from '../plugins/answer-masking.ts';
import { commonErrors, ref, reviewIdParams } from '../schemas.ts';

const meAnswer = {
  type: 'object',
  required: ['tenantId', 'role', 'actor', 'permissions', 'reviewer'],
  properties: {
    tenantId: { type: 'string' },
    role: { type: 'string' },
    actor: { type: 'string', description: 'Who the audit trail names for this key: reviewer:<id> for a person, else key:<id>' },
    permissions: { type: 'array', items: { type: 'string' } },
    reviewer: { type: ['object', 'null'], required: ['id', 'name', 'team'], properties: { id: { type: 'string' }, name: { type: 'string' }, team: { type: ['string', 'null'] } } },
    mediaHosts: {
      type: 'array',
      items: { type: 'string' },
      description: 'Hosts whose images, audio and video the reviewer console previews inline (VETTED_MEDIA_HOSTS); a URL elsewhere is shown as text behind a click, never fetched',
    },
  },
} as const;

const reviewFormAnswer = {
  type: 'object',
  required: ['reviewId', 'runId', 'model', 'pending', 'modelSchema', 'example', 'autoApprove'],
  properties: {
    reviewId: { type: 'string' },
    runId: { type: 'string' },
    model: { type: ['string', 'null'] },
    pending: { type: 'boolean' },
    modelSchema: { oneOf: [ref('model-schema'), { type: 'null' }] },
    example: {
      type: ['object', 'null'],
      description: "The model's published example input: never used to build the payload; shown to people only",
      required: ['input', 'note'],
      properties: { input: { type: 'object', additionalProperties: true }, note: { type: 'string' } },
    },
    autoApprove: {
      type: 'object',
      description: 'Whether the card may count down to an approval (policy.autoApproveCountdown, no blocking issues), and if not, why not',
      required: ['allowed'],
      properties: { allowed: { type: 'boolean' }, seconds: { type: 'integer' }, because: { type: 'string', enum: ['policy', 'blocking_issues', 'no_approve_action', 'quorum'] } },
    },
  },
} as const;

export function registerReviewFormRoutes(app: FastifyInstance, system: System): void {
  app.get('/api/me', {
    config: { permission: 'runs:read' },
    schema: { operationId: 'getMe', tags: ['system'], summary: "The caller's key: tenant, role, permissions and the person it belongs to", response: { 200: meAnswer, ...commonErrors } },
  }, async (request) => {
    const caller = principal(request);
    return { tenantId: caller.tenantId, role: caller.role, actor: actorOf(caller), permissions: [...caller.permissions].sort(), reviewer: caller.reviewer ?? null, mediaHosts: system.config.mediaHosts };
  });

  app.get<{ Params: { reviewId: string } }>('/api/reviews/:reviewId/form', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'getReviewForm',
      tags: ['reviews'],
      summary: "A review's form: the run's ModelSchema, the model's published example (never used to build the payload) and whether the card may count down to an approval",
      params: reviewIdParams,
      response: { 200: reviewFormAnswer, ...commonErrors },
    },
  }, async (request, reply) => {
    const { form, run } = await loadReviewForm(system, principal(request).tenantId, request.params.reviewId);
    // The example's secret-role inputs (a model's token) are masked like every other answer's.
    markSecretFields(reply, [run]);
    return form;
  });
}
