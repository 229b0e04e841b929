/**
 * What a failed call to the Replicate API means, read from the SDK's errors: an HTTP answer (ApiError with
 * the response), a connection that never opened (proof that nothing reached Replicate), or anything else
 * (a reset, a timeout mid-request: the request may or may not have been acted on).
 */

/** A failure classified for the provider's decisions. */
export type ReplicateFailure =
  | { kind: 'http'; status: number; detail: string }
  /** The connection was never established (refused, DNS failure, connect timeout): nothing was sent. */
  | { kind: 'unreachable'; reason: string }
  | { kind: 'aborted' }
  /** Anything else: the request may have been received. */
  | { kind: 'unknown'; reason: string };

/** Connection errors that prove no byte of the request reached a server. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const MAX_DETAIL = 300;

export function classifyReplicateError(error: unknown): ReplicateFailure {
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'aborted' };
  const status = httpStatus(error);
  if (status !== undefined) return { kind: 'http', status, detail: apiDetail(error as Error) };
  const codes = causeCodes(error);
  const reason = causeMessage(error);
  if (codes.length > 0 && codes.every((code) => NEVER_CONNECTED.has(code))) return { kind: 'unreachable', reason };
  return { kind: 'unknown', reason };
}

/** A short, human description of a failure, for messages. */
export function describeFailure(failure: ReplicateFailure): string {
  switch (failure.kind) {
    case 'http':
      return `HTTP ${failure.status}${failure.detail ? `: ${failure.detail}` : ''}`;
    case 'unreachable':
    case 'unknown':
      return failure.reason;
    case 'aborted':
      return 'aborted';
  }
}

function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  const response = (error as { response?: { status?: unknown } }).response;
  return typeof response?.status === 'number' ? response.status : undefined;
}

/**
 * The SDK has already read the body into the message ("Request to … failed with status 404 Not Found:
 * {"detail":"…"}."); Replicate's JSON `detail` is the useful part.
 */
function apiDetail(error: Error): string {
  const body = /failed with status \d+[^:]*: ([\s\S]*)\.$/.exec(error.message)?.[1] ?? '';
  let detail = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { detail?: unknown }).detail === 'string') {
      detail = (parsed as { detail: string }).detail;
    }
  } catch {
    // Not JSON: keep the text as it is.
  }
  return detail.length <= MAX_DETAIL ? detail : `${detail.slice(0, MAX_DETAIL)}…`;
}

/** undici wraps the system error (`TypeError: fetch failed` → cause `ECONNREFUSED`), sometimes in an AggregateError. */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (current instanceof AggregateError) {
      for (const inner of current.errors) {
        const innerCode = (inner as { code?: unknown } | null)?.code;
        if (typeof innerCode === 'string') codes.push(innerCode);
      }
    }
    current = current.cause;
  }
  return codes;
}

function causeMessage(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  let current: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 3 && current instanceof Error; depth += 1) {
    if (current.message) text = `${text}: ${current.message}`;
    current = current.cause;
  }
  return text;
}
