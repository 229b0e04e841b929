/**
 * The console's only way to the API: same-origin fetch with the signed-in key in an Authorization header.
 * The key lives in this module's closure (memory) only: never in localStorage, a cookie or a URL, so a reload
 * signs the reviewer out. Errors come back as ApiProblem, carrying the API's problem+json body as it was sent.
 */

export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  code?: string;
  field?: string;
  [key: string]: unknown;
}

/** An API answer that was not 2xx, with its problem detail. */
export class ApiProblem extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiProblem';
    this.problem = problem;
  }
}

let apiKey: string | null = null;

export function setApiKey(key: string | null): void {
  apiKey = key;
}

export function hasApiKey(): boolean {
  return apiKey !== null;
}

/** Headers for a request to the API, with the key. */
export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...extra };
}

async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    return { ...body, title: body.title ?? response.statusText, status: body.status ?? response.status };
  } catch {
    return { title: response.statusText || 'Request failed', status: response.status, detail: text.slice(0, 500) || undefined };
  }
}

export async function api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: authHeaders(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ApiProblem({ title: 'The API could not be reached', status: 0, detail: `${(error as Error).message}. Check that \`vetted api\` is running.` });
  }
  if (!response.ok) throw new ApiProblem(await problemOf(response));
  return (await response.json()) as T;
}

/** A query string from the set values of an object. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
