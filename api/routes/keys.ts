/**
 * The tenant's API keys (admin): create one (its secret is in this answer only), list them (never secrets or
 * hashes), revoke one. The CLI's `vetted keys` goes through these while `vetted api --embedded` holds the store.
 */
import type { FastifyInstance } from 'fastify';
import { createKeyFor, listKeysFor, revokeKeyFor, type NewKeyBody } from '../../src/auth/key-admin.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { apiKeyAnswer, apiKeyCreated, apiKeyList, commonErrors, keyIdParams, newKeyBody, ref } from '../schemas.ts';

/** `forgetVerifiedKeys` drops this process's cache of verified keys, so a revoked key is refused on its next request here. */
export function registerKeyRoutes(app: FastifyInstance, system: System, forgetVerifiedKeys: () => void): void {
  app.post<{ Body: NewKeyBody }>('/api/keys', {
    config: { permission: 'keys:manage' },
    schema: {
      operationId: 'createApiKey',
      tags: ['keys'],
      summary: "Create an API key for the caller's tenant (admin); the answer holds the whole key, shown this once",
      description: "A person's key names reviewerId (a reviewer of the tenant) and takes the person's role unless role is given. Only a hash of the secret is stored.",
      body: newKeyBody,
      response: { 201: apiKeyCreated, ...commonErrors },
    },
  }, async (request, reply) => {
    const { key, view } = await createKeyFor(system, principal(request), request.body);
    return reply.code(201).header('cache-control', 'no-store').send({ key, apiKey: view });
  });

  app.get('/api/keys', {
    config: { permission: 'keys:manage' },
    schema: { operationId: 'listApiKeys', tags: ['keys'], summary: "The caller's tenant's API keys, oldest first, revoked ones too (never secrets)", response: { 200: apiKeyList, ...commonErrors } },
  }, async (request) => ({ items: await listKeysFor(system, principal(request)) }));

  app.delete<{ Params: { id: string } }>('/api/keys/:id', {
    config: { permission: 'keys:manage' },
    schema: {
      operationId: 'revokeApiKey',
      tags: ['keys'],
      summary: 'Revoke a key of the tenant (admin); at once on this API process, within 10 seconds on others',
      description: "The tenant's last admin key in force cannot be revoked (409 LAST_ADMIN_KEY), also when two admins revoke each other at once: create another admin key first. Revoking a revoked key answers it unchanged.",
      params: keyIdParams,
      response: { 200: apiKeyAnswer, ...commonErrors, 409: ref('problem') },
    },
  }, async (request) => {
    const view = await revokeKeyFor(system, principal(request), request.params.id);
    forgetVerifiedKeys();
    return view;
  });
}
