/**
 * Execute a payload on a provider exactly once per ledger step, whatever crashes or retries happen:
 *
 *   no ledger row        → create it (the one winner), run the provider, record the outcome
 *   row with an outcome  → reuse it; the provider is not called again
 *   row `started` only   → an earlier attempt died mid-way: resume through the recorded provider handle,
 *                          or repeat only if the provider is side-effect free; otherwise a person decides
 *
 * One exception keeps a dead provider from leaving runs "uncertain" forever: a provider that can PROVE it
 * created nothing (connection refused, a 429 or 4xx answer to the create call) throws a
 * {@link ProviderNotStartedError}; the executor then releases the ledger row, so the next attempt starts
 * afresh. Anything less than proof (a timeout, a 5xx, a reset connection) keeps the row: maybe it ran.
 */
import { VettedError, type ErrorCode, type VettedErrorOptions } from '../errors.ts';
import type { ExecutionResult } from '../generated/contracts.ts';
import type { ExecutionHandle, ExecutionRequest, ModelProvider } from '../ports.ts';

export interface LedgerEntry {
  status: 'started' | 'succeeded' | 'failed';
  predictionId: string | null;
  result: ExecutionResult | null;
}

/**
 * Which run visit a step belongs to. When given, the ledger creates the step only while the run is still at
 * that visit (status executing, this attempt), and answers `undefined` otherwise: the run was cancelled or
 * moved on, so nothing may start. This is what lets the execute stage begin without reading the run first.
 */
export interface LedgerVisit {
  runAttempt?: number;
}

export type LedgerAnswer = { fresh: boolean; row: LedgerEntry } | undefined;

/** The idempotency ledger as the executor needs it (implemented by the executions repository). */
export interface LedgerBegin extends LedgerVisit {
  runId: string;
  step: string;
  provider: string;
  payloadHash: string;
  /**
   * The provider has no effect outside Vetted (the dry provider): a ledger may then record the step later,
   * with the run's move that ends the visit, instead of before the provider runs (src/engine/visit-ledger.ts).
   */
  sideEffectFree?: boolean;
}

export interface ExecutionLedger {
  begin(input: LedgerBegin): Promise<LedgerAnswer>;
  recordHandle(runId: string, step: string, predictionId: string): Promise<void>;
  finish(runId: string, step: string, result: ExecutionResult): Promise<void>;
  /** Deletes a `started` row that has no provider handle (nothing was created); a row with a handle stays. */
  release(runId: string, step: string): Promise<void>;
}

/**
 * Thrown by a provider that knows the work was NOT created (the request never reached it, or it answered
 * with a refusal). Its code and retryability are those of an ordinary VettedError (PROVIDER_UNAVAILABLE
 * retries, PROVIDER_FAILED ends the run); the executor additionally frees the step for a clean restart.
 */
export class ProviderNotStartedError extends VettedError {
  /** Recognised by this flag (not instanceof), which survives the module being loaded twice. */
  readonly notStarted = true;

  constructor(code: ErrorCode, message: string, options: VettedErrorOptions = {}) {
    super(code, message, options);
  }
}

/**
 * Thrown by a provider that answered "too many requests" (HTTP 429): it took nothing on. The execute stage retries
 * with its backoff; a run whose every attempt was refused this way asks a person as `provider_throttled`, not as
 * an execution whose outcome nobody knows. A provider that recorded a handle first (a keyed call) keeps its
 * ledger row whatever the error says (runAndRecord).
 */
export class ProviderThrottledError extends ProviderNotStartedError {
  /** Recognised by this flag (not instanceof), as `notStarted` is. */
  readonly throttled = true;

  constructor(message: string, options: VettedErrorOptions = {}) {
    super('PROVIDER_UNAVAILABLE', message, options);
  }
}

/** True for a provider's "too many requests". */
export function isThrottledError(error: unknown): error is ProviderThrottledError {
  return error instanceof Error && (error as { throttled?: unknown }).throttled === true;
}

/** True for an error that proves the provider created nothing. */
export function isNotStartedError(error: unknown): error is ProviderNotStartedError {
  return error instanceof Error && (error as { notStarted?: unknown }).notStarted === true;
}

/**
 * A finished step recorded with the run's move rather than on its own (StoreWrite.ledger in
 * src/engine/store.ts): the ledger and the run then commit together, in one statement.
 */
export interface LedgerRecord {
  step: string;
  provider: string;
  payloadHash: string;
  result: ExecutionResult;
}

export type ExecuteOutcome =
  | { kind: 'executed' | 'reused' | 'resumed' | 'repeated'; result: ExecutionResult }
  /** Started before, no outcome and no way to find out: never guess, ask a person. */
  | { kind: 'uncertain'; predictionId: string | null }
  /**
   * The run left the visit (`runAttempt`) before the step was recorded: nothing is recorded, and the provider
   * was not called.
   */
  | { kind: 'superseded' };

export interface ExecuteOnceInput {
  request: ExecutionRequest;
  payloadHash: string;
  provider: ModelProvider;
  ledger: ExecutionLedger;
  /** The run's attempt at the execute stage, so the ledger refuses a run that has moved on (LedgerVisit). */
  runAttempt?: number;
}

export async function executeOnce(input: ExecuteOnceInput): Promise<ExecuteOutcome> {
  const { request, provider, ledger } = input;
  const begun = await ledger.begin({
    runId: request.runId, step: request.step, provider: provider.name, payloadHash: input.payloadHash, runAttempt: input.runAttempt, sideEffectFree: provider.sideEffectFree,
  });
  if (!begun) return { kind: 'superseded' };
  if (begun.fresh) return { kind: 'executed', result: await runAndRecord(input) };

  const entry = begun.row;
  if (entry.status !== 'started' && entry.result) return { kind: 'reused', result: entry.result };
  if (entry.predictionId && provider.resume) {
    const result = await provider.resume({ predictionId: entry.predictionId }, request);
    await ledger.finish(request.runId, request.step, result);
    return { kind: 'resumed', result };
  }
  if (provider.sideEffectFree) return { kind: 'repeated', result: await runAndRecord(input) };
  return { kind: 'uncertain', predictionId: entry.predictionId };
}

async function runAndRecord({ request, provider, ledger }: ExecuteOnceInput): Promise<ExecutionResult> {
  let started = false;
  const onStarted = (handle: ExecutionHandle) => {
    started = true;
    return ledger.recordHandle(request.runId, request.step, handle.predictionId);
  };
  let result: ExecutionResult;
  try {
    result = await provider.execute(request, onStarted);
  } catch (error) {
    // A provider that reported a handle did start something, whatever its error claims: keep the row.
    if (isNotStartedError(error) && !started) await ledger.release(request.runId, request.step);
    throw error;
  }
  await ledger.finish(request.runId, request.step, result);
  return result;
}
