/**
 * The tenant's retention (admin): how long run documents are kept after a run ends, and PII masking of stored
 * text. The CLI's `vetted retention` goes through these while `vetted api --embedded` holds the store.
 */
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../src/auth/api-keys.ts';
import { changeRetention, retentionOf, type RetentionChange } from '../../src/retention/settings.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, retentionChangeBody, retentionView } from '../schemas.ts';

export function registerRetentionRoutes(app: FastifyInstance, system: System): void {
  app.get('/api/retention', {
    config: { permission: 'settings:manage' },
    schema: {
      operationId: 'getRetention', tags: ['settings'],
      summary: "The caller's tenant's retention: documentsDays (null: kept forever) and maskPii; the defaults where none is set",
      response: { 200: retentionView, ...commonErrors },
    },
  }, async (request) => retentionOf(system.retention, principal(request).tenantId));

  app.patch<{ Body: RetentionChange }>('/api/retention', {
    config: { permission: 'settings:manage' },
    schema: {
      operationId: 'changeRetention', tags: ['settings'],
      summary: 'Change the retention settings given (the others keep their value)',
      description:
        'documentsDays: the documents of runs that ended more than this many days ago are purged (the audit trail stays); null keeps them forever. ' +
        'maskPii: mask email addresses and phone numbers in the prompt and conversation of new requests.',
      body: retentionChangeBody,
      response: { 200: retentionView, ...commonErrors },
    },
  }, async (request) => {
    const caller = principal(request);
    return changeRetention(system.retention, caller.tenantId, request.body, actorOf(caller));
  });
}
