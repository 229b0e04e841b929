/**
 * The interfaces the pure stages need from the outside world. Adapters in src/adapters implement them;
 * stages never import an SDK, a queue or a database.
 */
import type {
  CandidatePayload,
  ExecutionResult,
  ModelSchema,
  RequestBundle,
} from './generated/contracts.ts';
import type { ModelFetcher } from './catalog/model-fetcher.ts';
import type { BuilderName, ProviderName } from './config.ts';
import type { ReplyInterpreter } from './review-model/reply-question.ts';

/**
 * What a payload builder may see: the user's bundle and the blueprint. Nothing else.
 * There is deliberately no field for example values: the builder cannot reach them (zero trust).
 */
export interface BuilderInput {
  readonly bundle: RequestBundle;
  readonly schema: ModelSchema;
}

export interface PayloadBuilder {
  /** The builder's name as recorded on the run (`heuristic`, `openai`). */
  readonly name: string;
  /**
   * True when build() is a pure function of its input (the same bundle and schema give the same candidate),
   * so a candidate it made may stand in for building again. Shadow mode uses this to skip V2's second build.
   */
  readonly deterministic?: boolean;
  /**
   * Maps the bundle onto the schema. Every payload field must carry a provenance entry.
   * Throws VettedError BUILDER_FAILED (retryable or not) when it cannot produce a candidate.
   */
  build(input: BuilderInput, options?: { signal?: AbortSignal }): Promise<CandidatePayload>;
}

export interface ExecutionRequest {
  runId: string;
  /** The ledger step this execution belongs to (`execute:1`); providers use it as an idempotency key. */
  step: string;
  model: string | null;
  version: string | null;
  payload: Record<string, unknown>;
  signal?: AbortSignal;
}

/** What a provider knows about an execution it started but has not finished (a Replicate prediction id). */
export interface ExecutionHandle {
  predictionId: string;
}

export interface ModelProvider {
  readonly name: string;
  /**
   * True when running the same payload twice has no effect outside Vetted (the dry provider). Only then may
   * the executor repeat a step whose earlier attempt left no recorded outcome.
   */
  readonly sideEffectFree: boolean;
  /**
   * Runs the payload. `onStarted` is called as soon as the provider has accepted the work, before waiting for
   * it, so the ledger records the handle and a retry after a crash resumes instead of starting again.
   */
  execute(request: ExecutionRequest, onStarted: (handle: ExecutionHandle) => Promise<void>): Promise<ExecutionResult>;
  /** Waits for an execution started by an earlier attempt. */
  resume?(handle: ExecutionHandle, request: ExecutionRequest): Promise<ExecutionResult>;
  /** Best-effort cancellation of a started execution (run cancelled). */
  cancel?(handle: ExecutionHandle): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * Which builders and providers this process can use, and the optional helpers (the catalog's model fetcher, the
 * chat-reply interpreter): the engine's adapters. src/adapters/registry.ts builds one from the configuration; the
 * composition roots hand it to the engine.
 */
export interface AdapterRegistry {
  builder(name: string): PayloadBuilder;
  provider(name: string): ModelProvider;
  builderNames(): BuilderName[];
  providerNames(): ProviderName[];
  /** Fetches models the catalog lacks (Replicate, when a token is configured); undefined otherwise. */
  modelFetcher(): ModelFetcher | undefined;
  /** Reads chat replies the fast path could not (an LLM, when OpenAI is configured); undefined otherwise. */
  replyInterpreter(): ReplyInterpreter | undefined;
}
