/**
 * The few API calls the chaos run makes, with every failure turned into a value: the load driver and the
 * reviewer decide what to retry, and a fault must never throw through them.
 */

export type CallResult<T> =
  | { ok: true; status: number; body: T }
  /** `status` 0: no HTTP answer at all (refused, reset, timed out). */
  | { ok: false; status: number; code: string; detail: string };

const TIMEOUT_MS = 10_000;

export async function callApi<T>(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<CallResult<T>> {
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { detail: text.slice(0, 200) };
    }
    if (response.ok) return { ok: true, status: response.status, body: parsed as T };
    return { ok: false, status: response.status, code: String(parsed.code ?? `HTTP_${response.status}`), detail: String(parsed.detail ?? '') };
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.name) : 'ERROR';
    return { ok: false, status: 0, code: `NETWORK_${cause}`, detail: error instanceof Error ? error.message : String(error) };
  }
}

/** Worth trying again: no answer, a server error, or throttling. A 4xx is the client's fault and final. */
export function isRetryable(result: { ok: false; status: number }): boolean {
  return result.status === 0 || result.status >= 500 || result.status === 429;
}
