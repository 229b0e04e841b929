/**
 * The client's errors. Every error it throws on purpose is a VettedClientError with a code from a closed union,
 * so callers branch on `error.code`, never on a message. Recognise them with {@link isVettedClientError}: it
 * checks a brand rather than `instanceof`, so it still works when two copies of the package are loaded.
 */

import type { components } from './generated/openapi.ts';

/** Codes the client raises itself (the API's own codes arrive on {@link VettedApiError}). */
export type ClientErrorCode =
  /** An option given to the client is missing or not valid (the `field` names it). */
  | 'INVALID_OPTION'
  /** The API answered with an error (a problem+json body); see {@link VettedApiError}. */
  | 'API_ERROR'
  /** The API could not be reached, or its answer could not be read. */
  | 'NETWORK_ERROR'
  /** The run's event stream kept failing after every reconnect attempt. */
  | 'EVENT_STREAM_UNAVAILABLE'
  /** A frame on the run's event stream was not a run event. */
  | 'EVENT_STREAM_INVALID'
  | WebhookErrorCode;

/** Why a webhook was refused by {@link verifyWebhook}. */
export type WebhookErrorCode =
  /** No `Vetted-Signature` header (or an empty one). */
  | 'WEBHOOK_SIGNATURE_MISSING'
  /** The header is not `t=<unix seconds>,v1=<64 hex digits>`. */
  | 'WEBHOOK_SIGNATURE_MALFORMED'
  /** The signed timestamp is further from now than the tolerance: a replay, or a clock far off. */
  | 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE'
  /** The HMAC does not match: another secret, or a body that was changed. */
  | 'WEBHOOK_SIGNATURE_MISMATCH'
  /** The secret given to verify with is empty. */
  | 'WEBHOOK_SECRET_MISSING'
  /** The signature is good but the body is not the JSON Vetted sends. */
  | 'WEBHOOK_BODY_INVALID';

const BRAND = Symbol.for('vetted.client.error');

export class VettedClientError extends Error {
  override readonly name: string = 'VettedClientError';
  readonly code: ClientErrorCode;
  /** The option, header or field at fault, when there is one. */
  readonly field: string | undefined;
  readonly [BRAND] = true;

  constructor(code: ClientErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
  }
}

/** An RFC 9457 problem as the Vetted API sends it: a stable `code`, a `detail`, and the offending `field` (from the document). */
export type Problem = components['schemas']['Problem'];

/** The API refused a call. `apiCode` is the API's catalogued code (`RUN_NOT_FOUND`, `PAYLOAD_HASH_MISMATCH`, …). */
export class VettedApiError extends VettedClientError {
  override readonly name: string = 'VettedApiError';
  readonly status: number;
  readonly apiCode: string;
  readonly problem: Problem | undefined;

  constructor(status: number, problem: Problem | undefined, operation: string) {
    const apiCode = problem?.code ?? `HTTP_${status}`;
    super('API_ERROR', `${operation} failed: ${status} ${apiCode}${problem?.detail ? `: ${problem.detail}` : ''}`, problem?.field ? { field: problem.field } : {});
    this.status = status;
    this.apiCode = apiCode;
    this.problem = problem;
  }
}

export class WebhookVerificationError extends VettedClientError {
  override readonly name: string = 'WebhookVerificationError';
  declare readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string, field = 'vetted-signature') {
    super(code, message, { field });
  }
}

export function isVettedClientError(error: unknown): error is VettedClientError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

export function isVettedApiError(error: unknown): error is VettedApiError {
  return isVettedClientError(error) && error.code === 'API_ERROR';
}

/** Reads a problem body when the answer has one (any object with a string `code`). */
export function asProblem(body: unknown): Problem | undefined {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' ? (body as Problem) : undefined;
}
