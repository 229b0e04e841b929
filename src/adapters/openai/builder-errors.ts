/**
 * Every way the LLM call can fail, as one BUILDER_FAILED with a reason a reviewer can act on. The SDK has
 * already retried timeouts, 429s and 5xx (maxRetries), so nothing here is worth another automatic try: the
 * stage processor parks the run as an error_recovery review.
 *
 * Server messages are quoted only where they cannot hold a credential: an authentication error from OpenAI
 * echoes part of the key ("Incorrect API key provided: sk-ab***yz"), so 401/403 get a fixed message.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { VettedError } from '../../errors.ts';
import { OPENAI_BUILDER_NAME } from './names.ts';

export interface CallFacts {
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

const MAX_QUOTED = 300;

/** The VettedError for a failed chat completion call; an abort by the caller's signal is passed through. */
export function builderFailure(error: unknown, facts: CallFacts): unknown {
  if (error instanceof APIUserAbortError) return error;
  const retries = `after ${facts.maxRetries} ${facts.maxRetries === 1 ? 'retry' : 'retries'}`;
  const details: Record<string, unknown> = { builder: OPENAI_BUILDER_NAME, model: facts.model };
  if (error instanceof APIError && error.status !== undefined) details.status = error.status;
  const message = describe(error, facts, retries);
  return new VettedError('BUILDER_FAILED', message, { details, cause: error });
}

function describe(error: unknown, facts: CallFacts, retries: string): string {
  if (error instanceof APIConnectionTimeoutError) {
    return `The LLM did not answer within ${facts.timeoutMs} ms (${retries})`;
  }
  if (error instanceof APIConnectionError) {
    return `The LLM server could not be reached (${retries}): ${causeText(error)}`;
  }
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return `The LLM server refused the API key (HTTP ${error.status}); check OPENAI_API_KEY`;
  }
  if (error instanceof RateLimitError) return `The LLM server kept answering 429 Too Many Requests (${retries})`;
  if (error instanceof APIError && (error.status ?? 0) >= 500) {
    return `The LLM server failed with HTTP ${error.status} (${retries}): ${quote(error.message)}`;
  }
  if (error instanceof APIError) {
    return `The LLM server refused the request for model "${facts.model}" (HTTP ${error.status ?? '?'}): ${quote(error.message)}`;
  }
  return `The LLM call failed: ${quote(error instanceof Error ? error.message : String(error))}`;
}

/** undici hides the useful part ("connect ECONNREFUSED 127.0.0.1:1") in the cause chain. */
function causeText(error: Error): string {
  let current: unknown = error;
  let text = error.message;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    text = current.message || text;
    current = current.cause;
  }
  return quote(text);
}

function quote(text: string): string {
  return text.length <= MAX_QUOTED ? text : `${text.slice(0, MAX_QUOTED)}…`;
}
