/**
 * The fal client retries a queue submission on 502/504 and on dropped connections. For a submission that
 * may have reached fal, that retry could queue the same run twice. This fetch lets a POST fail exactly once
 * whenever it may have been received: such failures become SubmitUncertainError, which the client does not
 * retry. A connection that never opened (refused, unknown host) is passed through: nothing was sent, and the
 * client's retry is safe. Reads (status, result) are retried freely.
 */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const MAYBE_RECEIVED_STATUS = new Set([500, 502, 504]);

export class SubmitUncertainError extends Error {
  override readonly name = 'SubmitUncertainError';
}

export const guardedFetch: typeof fetch = async (input, init) => {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return fetch(input, init);
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (error instanceof Error && (error.name === 'AbortError' || neverSent(error))) throw error;
    throw new SubmitUncertainError(error instanceof Error ? error.message : String(error));
  }
  if (MAYBE_RECEIVED_STATUS.has(response.status)) throw new SubmitUncertainError(`fal answered ${response.status}`);
  return response;
};

function neverSent(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
