/**
 * The error catalogue. Every error Vetted raises on purpose is a VettedError with a code from this table;
 * the code decides the HTTP status, whether a worker retries, and the problem body's title.
 * Error codes are API: add new ones, never rename.
 */

export const ERROR_CATALOGUE = {
  INVALID_REQUEST: { status: 400, retryable: false, title: 'The request is not valid' },
  INVALID_JSON: { status: 400, retryable: false, title: 'The body is not valid JSON' },
  INVALID_ID: { status: 400, retryable: false, title: 'The id is not valid' },
  MODEL_SOURCE_INVALID: { status: 422, retryable: false, title: 'The model has neither a schema nor an example' },
  SCHEMA_UNSUPPORTED: { status: 422, retryable: false, title: 'The model schema uses a construct Vetted does not support' },
  MODEL_NOT_FOUND: { status: 404, retryable: false, title: 'The model is not in the catalog' },
  ATTACHMENT_REJECTED: { status: 400, retryable: false, title: 'An attachment was refused' },
  ROUTE_NOT_FOUND: { status: 404, retryable: false, title: 'No such route' },
  RUN_NOT_FOUND: { status: 404, retryable: false, title: 'No such run' },
  REVIEW_NOT_FOUND: { status: 404, retryable: false, title: 'No such review' },
  REVIEWER_NOT_FOUND: { status: 404, retryable: false, title: 'The tenant has no such reviewer' },
  TASK_NOT_FOUND: { status: 404, retryable: false, title: 'No such task' },
  KEY_NOT_FOUND: { status: 404, retryable: false, title: 'The tenant has no such API key' },
  TASK_TYPE_NOT_FOUND: { status: 404, retryable: false, title: 'The tenant has registered no such task type' },
  RUN_STATE_CONFLICT: { status: 409, retryable: false, title: 'The run is not in a state that allows this' },
  REVIEW_STALE: { status: 409, retryable: false, title: 'The review is no longer the pending one' },
  PAYLOAD_HASH_MISMATCH: { status: 409, retryable: false, title: 'The payload changed since the reviewer saw it' },
  DECISION_CONFLICT: { status: 409, retryable: false, title: 'Another decision on this review won' },
  ASSIGNMENT_CONFLICT: { status: 409, retryable: false, title: 'The review was assigned to someone else meanwhile' },
  REVIEW_CLAIMED: { status: 409, retryable: false, title: 'Another reviewer is working on this review' },
  REQUEST_KEY_REUSED: { status: 409, retryable: false, title: 'The requestKey was first used for a different request' },
  TASK_ALREADY_REVIEWED: { status: 409, retryable: false, title: 'The task was reviewed already; a review is never overwritten' },
  SCHEMA_CHANGED: { status: 409, retryable: false, title: "The model's schema changed while the run was parked; a new review was raised" },
  REVIEWER_HAS_REVIEWS: { status: 409, retryable: false, title: 'The person still has pending reviews assigned' },
  LAST_ADMIN_KEY: { status: 409, retryable: false, title: "The tenant's last admin key cannot be revoked" },
  BLOCKING_ISSUES: { status: 422, retryable: false, title: 'The payload still has blocking issues' },
  EDIT_INVALID: { status: 400, retryable: false, title: 'An edit is not valid for this model' },
  UNAUTHORIZED: { status: 401, retryable: false, title: 'Missing or invalid API key' },
  FORBIDDEN: { status: 403, retryable: false, title: 'The API key may not do this' },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, title: 'The body is too large' },
  RATE_LIMITED: { status: 429, retryable: true, title: 'Too many requests' },
  BUILDER_FAILED: { status: 502, retryable: false, title: 'The payload builder failed (after its own retries)' },
  PROVIDER_FAILED: { status: 502, retryable: false, title: 'The provider rejected the prediction' },
  PROVIDER_UNAVAILABLE: { status: 503, retryable: true, title: 'The provider could not be reached' },
  EXECUTION_UNCERTAIN: { status: 409, retryable: false, title: 'A previous execution attempt has no recorded outcome' },
  SERVICE_UNAVAILABLE: { status: 503, retryable: true, title: 'A backing service is unavailable' },
  CONSOLE_NOT_BUILT: { status: 503, retryable: false, title: 'The reviewer console is not built' },
  CONFIG_INVALID: { status: 500, retryable: false, title: 'The configuration is not valid' },
  DATA_KEY_MISSING: { status: 422, retryable: false, title: 'A secret input cannot be stored: no data key is configured' },
  INTERNAL: { status: 500, retryable: true, title: 'Internal error' },
} as const satisfies Record<string, { status: number; retryable: boolean; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface VettedErrorOptions {
  /** The offending field, as a dotted path or JSON pointer (`attachments[0].url`, `/width`). */
  field?: string;
  /** Extra machine-readable facts for the problem body (never secrets). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type Vetted throws on purpose. Recognise it with {@link isVettedError}, not instanceof alone. */
export class VettedError extends Error {
  override readonly name = 'VettedError';
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: VettedErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CATALOGUE[this.code].retryable;
  }
}

/** True for a VettedError, even when the module was loaded twice (checked by name and code, as BullMQ does). */
export function isVettedError(error: unknown): error is VettedError {
  return (
    error instanceof VettedError ||
    (error instanceof Error && error.name === 'VettedError' && typeof (error as { code?: unknown }).code === 'string')
  );
}

/** A code read back from storage (a run's error) as a catalogue code; anything unknown is INTERNAL. */
export function errorCodeOf(code: string | undefined): ErrorCode {
  return code !== undefined && Object.hasOwn(ERROR_CATALOGUE, code) ? (code as ErrorCode) : 'INTERNAL';
}

/** Compile-time exhaustiveness for switches over unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new VettedError('INTERNAL', `Unhandled ${what}: ${JSON.stringify(value)}`);
}
