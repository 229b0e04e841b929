/** Submitting and reading runs. Handlers are thin: check, call a service or query, shape the answer. */
import { actorOf } from '../../src/auth/api-keys.ts';
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { RunStatus } from '../../src/generated/contracts.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { activeRunsQuery, commonErrors, listRunsQuery, ref, runAccepted, runIdParams, runList, runPage, runState, sessionParams } from '../schemas.ts';
import { runLinks, runResource } from '../views.ts';
import { markSecretFields } from '../plugins/answer-masking.ts';

interface ListQuery {
  status?: RunStatus[];
  userId?: string;
  sessionId?: string;
  model?: string;
  createdAfter?: string;
  createdBefore?: string;
  limit: number;
  cursor?: string;
}

/**
 * The body POST /api/runs validates with (and the document shows): a GenerationRequest that names its model,
 * by reference or inline. The contract itself leaves both optional, because `vetted dry-run` takes the model
 * from a file beside the request.
 */
const submitBody = {
  type: 'object',
  // Spelt as two whole branches (not `allOf` beside a bare `anyOf`) so generated clients type it as
  // "a GenerationRequest with model, or one with modelSource".
  anyOf: [
    { allOf: [ref('generation-request')], required: ['model'] },
    { allOf: [ref('generation-request')], required: ['modelSource'] },
  ],
  examples: [{ model: 'black-forest-labs/flux-schnell', prompt: 'a red fox in fresh snow, 16:9, seed 42', requestKey: 'order-1234', userId: 'u-42', sessionId: 's-7', policy: 'auto' }],
};

export function registerRunRoutes(app: FastifyInstance, system: System): void {
  app.post<{ Body: Record<string, unknown> }>('/api/runs', {
    config: { permission: 'runs:create', dependencies: ['redis'] },
    schema: {
      operationId: 'createRun',
      tags: ['runs'],
      summary: 'Enqueue a generation request',
      description:
        'The run is stored in PostgreSQL before this answers. A repeated requestKey returns the existing run (200 instead of 202). ' +
        'Refused before anything is stored: a bad attachment (400), a model the catalog does not have (404), an inline modelSource ' +
        'that is not a usable model (422), or one that contradicts `model` (400).',
      body: submitBody,
      response: { 200: runAccepted, 202: runAccepted, ...commonErrors, 409: ref('problem'), 422: ref('problem') },
    },
  }, async (request, reply) => {
    const caller = principal(request);
    const { run, created } = await submitRun(system, { tenantId: caller.tenantId, request: request.body, actor: actorOf(caller) });
    return reply.code(created ? 202 : 200).header('location', `/api/runs/${run.id}`).send({ id: run.id, status: run.status, created, links: runLinks(run.id) });
  });

  app.get<{ Querystring: ListQuery }>('/api/runs', {
    config: { permission: 'runs:read' },
    schema: { operationId: 'listRuns', tags: ['runs'], summary: 'List runs, newest first, with cursor pagination', querystring: listRunsQuery, response: { 200: runPage, ...commonErrors } },
  }, async (request, reply) => {
    const q = request.query;
    const page = await system.runQueries.list(principal(request).tenantId, {
      ...q,
      createdAfter: q.createdAfter ? new Date(q.createdAfter) : undefined,
      createdBefore: q.createdBefore ? new Date(q.createdBefore) : undefined,
    });
    markSecretFields(reply, page.items);
    return { items: page.items.map((row) => runResource(row)), nextCursor: page.nextCursor };
  });

  app.get<{ Querystring: { userId?: string; sessionId?: string } }>('/api/runs/active', {
    config: { permission: 'runs:read' },
    schema: { operationId: 'listActiveRuns', tags: ['runs'], summary: 'Runs a user or session can resume (not in a terminal state)', querystring: activeRunsQuery, response: { 200: runList, ...commonErrors } },
  }, async (request, reply) => {
    const rows = await system.runQueries.listActive(principal(request).tenantId, request.query);
    markSecretFields(reply, rows);
    return { items: rows.map((row) => runResource(row)) };
  });

  app.get<{ Params: { sessionId: string } }>('/api/sessions/:sessionId/runs/active', {
    config: { permission: 'runs:read' },
    schema: { operationId: 'listSessionActiveRuns', tags: ['runs'], summary: "A session's resumable runs", params: sessionParams, response: { 200: runList, ...commonErrors } },
  }, async (request, reply) => {
    const rows = await system.runQueries.listActive(principal(request).tenantId, { sessionId: request.params.sessionId });
    markSecretFields(reply, rows);
    return { items: rows.map((row) => runResource(row)) };
  });

  app.get<{ Params: { id: string } }>('/api/runs/:id', {
    config: { permission: 'runs:read' },
    schema: { operationId: 'getRun', tags: ['runs'], summary: 'A run: status, stage, pending review, timings', params: runIdParams, response: { 200: ref('run'), ...commonErrors } },
  }, async (request, reply) => {
    const row = await system.store.get(request.params.id, principal(request).tenantId);
    if (!row) throw new VettedError('RUN_NOT_FOUND', `No run ${request.params.id}`, { field: 'id' });
    markSecretFields(reply, [row]);
    return runResource(row, await system.store.events(row.id), system.clock.now());
  });

  app.get<{ Params: { id: string } }>('/api/runs/:id/state', {
    config: { permission: 'runs:read' },
    schema: {
      operationId: 'getRunState',
      tags: ['runs'],
      summary: 'Everything needed to resume a session: the run, its decisions, its executions and its events',
      params: runIdParams,
      response: { 200: runState, ...commonErrors },
    },
  }, async (request, reply) => {
    const row = await system.store.get(request.params.id, principal(request).tenantId);
    if (!row) throw new VettedError('RUN_NOT_FOUND', `No run ${request.params.id}`, { field: 'id' });
    markSecretFields(reply, [row]);
    const [events, decisions, executions] = await Promise.all([
      system.store.events(row.id),
      system.store.decisions(row.id),
      system.store.ledger.listForRun(row.id),
    ]);
    return {
      run: runResource(row, events, system.clock.now()),
      request: row.request,
      decisions: decisions.map((d) => ({ id: String(d.id), reviewId: d.reviewId, actor: d.actor, action: d.action, raw: d.raw, parsed: d.parsed, edits: d.edits, override: d.override, at: d.at.toISOString() })),
      executions: executions.map((e) => ({ step: e.step, status: e.status, provider: e.provider, predictionId: e.predictionId, startedAt: e.startedAt.toISOString(), finishedAt: e.finishedAt?.toISOString() ?? null })),
      events: events.map((e) => ({ id: String(e.id), runId: e.runId, type: e.type, actor: e.actor, at: e.at.toISOString(), data: e.data, traceId: e.traceId, threadId: e.threadId })),
    };
  });
}
