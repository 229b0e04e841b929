/** Decisions on parked runs, and pause / resume / cancel. */
import { actorOf, replierOf } from '../../src/auth/api-keys.ts';
import type { FastifyInstance } from 'fastify';
import { decide } from '../../src/review/decide-on-run.ts';
import { reply as replyToReview } from '../../src/review/reply-service.ts';
import { cancelRun, pauseRun, resumeRun } from '../../src/control/run-control.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, controlBody, decisionAccepted, ref, replyAnswer, runIdParams } from '../schemas.ts';
import { runLinks, runResource } from '../views.ts';
import { markSecretFields } from '../plugins/answer-masking.ts';

const conflicts = { 409: ref('problem'), 422: ref('problem') };
const notFound = { 404: ref('problem') };

/**
 * What POST /api/runs/:id/decision validates with, and the document shows: a Decision that echoes the
 * payloadHash the reviewer was shown when it approves or edits (the contract leaves it optional for the CLI,
 * which reads the current one itself). The conditional names the Decision again rather than listing
 * `payloadHash` under `properties`: the document's example check treats a subschema's own `properties` as the
 * only ones allowed there, so `then: { properties: { payloadHash } }` would refuse every valid body. That edits
 * come with action "edit" (at least one), and only then, is the decision service's rule (plan-decision.ts,
 * edit-validation.ts), for every channel.
 */
const decisionBody = {
  type: 'object',
  allOf: [
    ref('decision'),
    { if: { required: ['action'], properties: { action: { enum: ['approve', 'edit'] } } }, then: { allOf: [ref('decision')], required: ['payloadHash'] } },
  ],
  examples: [
    { reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', payloadHash: 'a3f5c0e1b2d4968778695a4b3c2d1e0f9a8b7c6d5e4f30211203948576a5b4c3', action: 'edit', edits: { width: 768 }, reason: 'the user asked for 768 wide' },
    { reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', action: 'reject', reason: 'not what the user asked for' },
    { reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', action: 'change_model', model: 'acme/image-edit', reason: 'the user asked to edit their photo, not for a new image' },
    { reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', action: 'edit_text', text: 'Blue.', outputHash: 'b3f5c0e1b2d4968778695a4b3c2d1e0f9a8b7c6d5e4f30211203948576a5b4c3' },
  ],
};

const replyBody = { type: 'object', allOf: [ref('reply')], examples: [{ reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', text: 'yes, but make it square', locale: 'en' }] };

export function registerControlRoutes(app: FastifyInstance, system: System): void {
  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/api/runs/:id/decision', {
    config: { permission: 'reviews:decide', dependencies: ['redis'] },
    schema: {
      operationId: 'decideReview',
      tags: ['reviews'],
      summary: 'Decide a pending review: approve, edit (field values), reject, retry (with edits: retry with changes), change_model (another catalog model), or edit_text (a text response)',
      description:
        'Name the pending reviewId and echo the payloadHash you were shown. A stale review or a changed payload is 409; ' +
        'approving over blocking issues is 422 unless the key holds the override permission and sends override: true. ' +
        'change_model (information and payload reviews, permission reviews:change_model) names a catalog model of your tenant in "model": ' +
        'the run keeps its request and the human edits that fit the new model, and goes back to extract, assemble and build (route "extract"); ' +
        'a model not in your catalog is 404 naming the field model. ' +
        'edit_text (response reviews of a text output) sends "text" and echoes the review\'s "outputHash" (a mismatch is 409): the upstream app gets the text, ' +
        'the result keeps the provider\'s output beside it (outputSource human_edit, providerOutput). retry with "edits" at a response review runs the edited payload again.',
      params: runIdParams,
      body: decisionBody,
      response: { 200: decisionAccepted, ...commonErrors, ...notFound, ...conflicts },
    },
  }, async (request, reply) => {
    const caller = principal(request);
    const { run, plan } = await decide(system, {
      runId: request.params.id,
      tenantId: caller.tenantId,
      body: request.body,
      actor: { id: actorOf(caller), canOverride: caller.permissions.has('override'), canChangeModel: caller.permissions.has('reviews:change_model') },
      requirePayloadHash: true,
    });
    markSecretFields(reply, [run]);
    return { route: plan.route, run: runResource(run) };
  });

  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/api/runs/:id/reply', {
    config: { permission: 'reviews:reply', dependencies: ['redis'] },
    schema: {
      operationId: 'replyToReview',
      tags: ['reviews'],
      summary: "Answer a pending review's question in the person's own words",
      description:
        'The reply is read as a decision (a yes/no word in eight languages, an option number, a value; an LLM for the rest, when configured) ' +
        'and carried out: continue, continue_with_modifications, switch_intent (a new run from the words), cancel, or re_ask (ask again). ' +
        'A reply to an expired review starts a new run carrying the question and the reply. Same 409 rules as decisions. ' +
        "A key without reviews:decide is the run's submitter: it may answer only a run it submitted, its clarifying questions, and cancel; " +
        'its reply approves a payload review, a response review or an error recovery only under policy.submitterApproves, and never counts toward a quorum (403 naming why).',
      params: runIdParams,
      body: replyBody,
      response: { 200: replyAnswer, ...commonErrors, ...notFound, ...conflicts },
    },
  }, async (request, reply) => {
    const caller = principal(request);
    const result = await replyToReview(system, {
      runId: request.params.id,
      tenantId: caller.tenantId,
      body: request.body,
      actor: { id: actorOf(caller), canOverride: false },
      replier: replierOf(caller),
    });
    markSecretFields(reply, [result.run]);
    return {
      outcome: result.outcome && { layer: result.outcome.layer, decision: result.outcome.decision, ...(result.outcome.parsed ? { parsed: result.outcome.parsed } : {}) },
      route: result.route,
      run: runResource(result.run),
      ...(result.newRun ? { newRun: { id: result.newRun.id, status: result.newRun.status, links: runLinks(result.newRun.id) } } : {}),
      ...(result.ask ? { ask: result.ask } : {}),
    };
  });

  const control = (path: string, operationId: string, summary: string, action: typeof pauseRun) =>
    ({
      path,
      options: {
        config: { permission: 'runs:control' as const, dependencies: ['redis' as const] },
        schema: { operationId, tags: ['runs'], summary, params: runIdParams, body: controlBody, response: { 200: ref('run'), ...commonErrors, ...notFound, ...conflicts } },
      },
      action,
    });

  for (const { path, options, action } of [
    control('/api/runs/:id/pause', 'pauseRun', 'Pause a run (its stage job is handed back; a pending review stops counting down)', pauseRun),
    control('/api/runs/:id/resume', 'resumeRun', 'Resume a paused run where it was', resumeRun),
  ]) {
    app.post<{ Params: { id: string }; Body: { reason?: string } | null }>(path, options, async (request, reply) => {
      const caller = principal(request);
      const run = await action(system, { runId: request.params.id, tenantId: caller.tenantId, actor: actorOf(caller), reason: request.body?.reason });
      markSecretFields(reply, [run]);
      return runResource(run);
    });
  }

  app.delete<{ Params: { id: string } }>('/api/runs/:id', {
    config: { permission: 'runs:control', dependencies: ['redis'] },
    schema: { operationId: 'cancelRun', tags: ['runs'], summary: 'Cancel a run (and the provider prediction under way, if any)', params: runIdParams, response: { 200: ref('run'), ...commonErrors, ...notFound, ...conflicts } },
  }, async (request, reply) => {
    const caller = principal(request);
    const run = await cancelRun(system, { runId: request.params.id, tenantId: caller.tenantId, actor: actorOf(caller) });
    markSecretFields(reply, [run]);
    return runResource(run);
  });
}
