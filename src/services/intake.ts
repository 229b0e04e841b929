/**
 * Accepting a generation request: check it against the contract, write the run to PostgreSQL, then
 * enqueue the first stage. The row exists before anyone is told "accepted", so nothing is lost; a repeated
 * requestKey returns the run that already exists.
 */
import { VettedError } from '../errors.ts';
import type { GenerationRequest, PolicySpec, RunPolicy } from '../generated/contracts.ts';
import { logEvent } from '../observability/logger.ts';
import { assertContract } from '../schema/contracts.ts';
import type { RunRow } from '../db/schema/index.ts';
import type { System } from '../system.ts';
import { findUnstorableText } from '../util/storable-text.ts';
import { assertCallbackUrl } from './callback-target.ts';
import { preflightRequest } from './request-preflight.ts';
import { logContext } from './run-transitions.ts';
import { canonicalHash } from '../util/canonical-hash.ts';

export interface SubmitInput {
  tenantId: string;
  /** The request body as received; checked here. */
  request: unknown;
  /** Who submitted it, for the audit trail. */
  actor: string;
}

export interface SubmitResult {
  run: RunRow;
  /** False when the requestKey matched an existing run, which is returned instead. */
  created: boolean;
}

/**
 * @throws VettedError INVALID_REQUEST naming the field when the request does not fit the contract, and what
 *   preflightRequest refuses (an attachment, an unknown model, a bad inline model source), and a callbackUrl
 *   aimed at loopback or a private network (see callback-target.ts).
 */
export async function submitRun(system: System, input: SubmitInput): Promise<SubmitResult> {
  const request = assertContract<GenerationRequest>('generation-request', input.request, 'request');
  const unstorable = findUnstorableText(request);
  if (unstorable) throw new VettedError('INVALID_REQUEST', `request: ${unstorable.path} ${unstorable.reason}`, { field: unstorable.path });
  if (!request.model && !request.modelSource) {
    throw new VettedError('INVALID_REQUEST', 'request: model is required (owner/name), or send the model inline as modelSource', { field: 'model' });
  }
  if (request.callbackUrl && !system.config.webhookSecret) {
    throw new VettedError('INVALID_REQUEST', 'request: callbackUrl needs webhook signing, which this server has not configured (VETTED_WEBHOOK_SECRET)', {
      field: 'callbackUrl',
    });
  }
  if (request.callbackUrl) assertCallbackUrl(request.callbackUrl, { allowPrivate: system.config.webhookAllowPrivate });
  const builder = request.builder ?? system.config.defaults.builder;
  const provider = request.provider ?? system.config.defaults.provider;
  system.adapters.builder(builder);
  system.adapters.provider(provider);
  await preflightRequest(system, input.tenantId, request);

  const id = system.newId();
  const stored = redactRequest(system, request);
  const { run, created } = await system.runs.insert(
    {
      id,
      tenantId: input.tenantId,
      requestKey: request.requestKey ?? null,
      status: 'queued',
      stage: 'extract',
      attempt: 0,
      traceId: system.newId(),
      threadId: request.threadId ?? request.sessionId ?? id,
      userId: request.userId ?? null,
      sessionId: request.sessionId ?? null,
      model: request.model ?? null,
      builder,
      provider,
      policy: normalizePolicy(request.policy, system.config.defaults.policy),
      request: stored,
    },
    { type: 'run.created', actor: input.actor, data: { model: request.model ?? null, builder, provider } },
  );
  // A key names one request: the same key with another body is a client bug (or two clients sharing keys),
  // and answering with the first run would silently drop the second request.
  if (!created && canonicalHash(run.request) !== canonicalHash(stored)) {
    throw new VettedError('REQUEST_KEY_REUSED', `requestKey "${request.requestKey}" was first used for a different request (run ${run.id}); use a new key for a new request`, {
      field: 'requestKey',
      details: { runId: run.id },
    });
  }
  // A repeated requestKey whose first enqueue was lost (crash after the insert) gets its job back; the
  // job id is deterministic, so this never adds a second one.
  if (created || run.status === 'queued') {
    await system.queues.enqueueStage({ runId: run.id, stage: 'extract', attempt: run.attempt });
  }
  if (created) logEvent(system.logger, 'RUN_CREATED', logContext(run), { tenantId: run.tenantId, model: run.model, builder, provider });
  return { run, created };
}

export function normalizePolicy(policy: RunPolicy | undefined, fallback: PolicySpec): PolicySpec {
  if (policy === undefined) return { ...fallback };
  return typeof policy === 'string' ? { mode: policy } : { ...policy };
}

/**
 * The stored snapshot: secret-named keys in the profile and known secret values are removed. Edits pass
 * through whole, because a person may set a model's own secret input there and the run needs it to execute.
 */
function redactRequest(system: System, request: GenerationRequest): GenerationRequest {
  const { edits, ...rest } = request;
  const redacted = system.redact(rest);
  return edits === undefined ? redacted : { ...redacted, edits };
}
