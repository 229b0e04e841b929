/**
 * POST /api/policies/preview: replay a proposed policy over the caller's tenant's stored runs and count, per
 * checkpoint and model, the runs that would wait for a person against those that did. Nothing is changed.
 */
import type { FastifyInstance } from 'fastify';
import { previewPolicy } from '../../src/policy/preview.ts';
import { parseSince } from '../../src/shadow/since.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, ref } from '../schemas.ts';

/** The look-back when the body names none. */
const DEFAULT_SINCE = '7d';

const previewBody = {
  type: 'object',
  additionalProperties: false,
  required: ['policy'],
  properties: {
    policy: ref('run-policy'),
    since: { type: 'string', minLength: 2, maxLength: 40, description: 'look-back (24h, 7d, 2w) or an ISO 8601 date; default 7d' },
    model: ref('common', '#/definitions/ModelReference'),
  },
} as const;

const tally = {
  type: 'object',
  required: ['runs', 'before', 'after', 'newlyParked', 'noLongerParked'],
  properties: {
    runs: { type: 'integer' },
    before: { type: 'integer', description: 'runs that waited for a person' },
    after: { type: 'integer', description: 'runs that would wait under the proposed policy' },
    newlyParked: { type: 'integer' },
    noLongerParked: { type: 'integer' },
  },
} as const;
const checkpointTally = { ...tally, required: [...tally.required, 'checkpoint'], properties: { ...tally.properties, checkpoint: { type: 'string' } } } as const;

const previewAnswer = {
  type: 'object',
  required: ['policy', 'window', 'runs', 'total', 'byCheckpoint', 'byModel'],
  properties: {
    policy: ref('run-policy', '#/definitions/PolicySpec'),
    window: { type: 'object', properties: { since: { type: 'string' }, until: { type: 'string' }, model: { type: ['string', 'null'] } } },
    runs: {
      type: 'object',
      properties: {
        considered: { type: 'integer' },
        replayed: { type: 'integer' },
        notReplayable: { type: 'object', additionalProperties: { type: 'integer' }, description: 'by why: not_assembled, not_built, schema_missing' },
        truncated: { type: 'boolean' },
      },
    },
    total: { ...tally, properties: { ...tally.properties, reasonsAfter: { type: 'object', additionalProperties: { type: 'integer' } } } },
    byCheckpoint: { type: 'array', items: checkpointTally },
    byModel: { type: 'array', items: { ...tally, properties: { ...tally.properties, model: { type: 'string' }, checkpoints: { type: 'array', items: checkpointTally } } } },
  },
} as const;

export function registerPolicyRoutes(app: FastifyInstance, system: System): void {
  app.post<{ Body: { policy: unknown; since?: string; model?: string } }>('/api/policies/preview', {
    config: { permission: 'policies:preview' },
    schema: {
      operationId: 'previewPolicy',
      tags: ['runs'],
      summary: "Replay a proposed policy over the tenant's stored runs: how many would wait for a person, per checkpoint and model, against what happened (no run is changed)",
      body: previewBody,
      response: { 200: previewAnswer, ...commonErrors },
    },
  }, async (request) => {
    const now = system.clock.now();
    return previewPolicy(
      { previewRuns: system.previewRuns, models: system.models, defaults: system.config.defaults },
      { tenantId: principal(request).tenantId, policy: request.body.policy, since: parseSince(request.body.since ?? DEFAULT_SINCE, now), until: now, model: request.body.model },
    );
  });
}
