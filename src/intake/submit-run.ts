/**
 * Accepting a generation request: check it against the contract and what intake can tell before storing it
 * (request-checks.ts), write the run, then enqueue the first stage (create in src/engine/commit.ts). The row
 * exists before anyone is told "accepted", so nothing is lost; a repeated requestKey returns the run that
 * already exists.
 */
import { create } from '../engine/commit.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';
import type { GenerationRequest, PolicySpec, RunPolicy } from '../generated/contracts.ts';
import { newRunTraceId } from '../observability/tracing.ts';
import { maskRequestPii } from '../retention/pii.ts';
import { assertSlaPolicy } from '../review-model/sla.ts';
import { assertContract } from '../schema/contracts.ts';
import { canonicalHash } from '../util/canonical-hash.ts';
import { checkRequest } from './request-checks.ts';

export interface SubmitInput {
  tenantId: string;
  /** The request body as received; checked here. */
  request: unknown;
  /** Who submitted it, for the audit trail. */
  actor: string;
  /** The run and review this one grew out of (a chat reply that asked for something else, or came too late). */
  origin?: { runId: string; reviewId: string; why: 'switch_intent' | 'expired_review' };
}

export interface SubmitResult {
  run: RunRow;
  /** False when the requestKey matched an existing run, which is returned instead. */
  created: boolean;
}

/**
 * @throws VettedError INVALID_REQUEST naming the field when the request does not fit the contract or its
 *   policy's SLA cannot work (review-model/sla.ts), and what
 *   checkRequest refuses (an attachment, an unknown model, a bad inline model source, a callbackUrl aimed at
 *   loopback or a private network); REQUEST_KEY_REUSED when the key was first used for another request.
 */
export async function submitRun(engine: Engine, input: SubmitInput): Promise<SubmitResult> {
  const request = assertContract<GenerationRequest>('generation-request', input.request, 'request');
  const provider = await checkRequest(engine, input.tenantId, request);
  const policy = normalizePolicy(request.policy, engine.config.defaults.policy);
  assertSlaPolicy(policy, engine.config.defaults.reviewTtlSeconds);
  const builder = request.builder ?? engine.config.defaults.builder;
  const id = engine.newId();
  const masked = (await engine.piiMasking?.(input.tenantId)) ? maskRequestPii(request) : request;
  const stored = redactRequest(engine, masked);
  const { run, created } = await create(
    engine,
    {
      id,
      tenantId: input.tenantId,
      requestKey: request.requestKey ?? null,
      status: 'queued',
      stage: 'extract',
      attempt: 0,
      // The submitting request's trace when it has one, so the API span and the stages share a trace.
      traceId: newRunTraceId(engine.newId),
      threadId: request.threadId ?? request.sessionId ?? id,
      userId: request.userId ?? null,
      sessionId: request.sessionId ?? null,
      model: request.model ?? null,
      builder,
      provider,
      policy,
      request: stored,
    },
    { type: 'run.created', actor: input.actor, data: { model: request.model ?? null, builder, provider, ...(input.origin ? { origin: input.origin } : {}) } },
  );
  // A key names one request: the same key with another body is a client bug (or two clients sharing keys),
  // and answering with the first run would silently drop the second request.
  if (!created && canonicalHash(run.request) !== canonicalHash(stored)) {
    throw new VettedError('REQUEST_KEY_REUSED', `requestKey "${request.requestKey}" was first used for a different request (run ${run.id}); use a new key for a new request`, {
      field: 'requestKey',
      details: { runId: run.id },
    });
  }
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
function redactRequest(engine: Engine, request: GenerationRequest): GenerationRequest {
  const { edits, ...rest } = request;
  const redacted = engine.redact(rest);
  return edits === undefined ? redacted : { ...redacted, edits };
}
