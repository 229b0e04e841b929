/**
 * The CLI through a running API. PGlite's files belong to the one process that holds them, so while
 * `vetted api --embedded` runs, a command that reads or changes runs, reviews, keys, people or settings asks
 * that API instead of opening the store: `--api <url>`, or the API found beside `--data-dir`'s lock
 * (src/embedded/api-file.ts). It acts with a key (`--api-key`, else VETTED_API_KEY; an admin key for keys,
 * people and settings), for that key's tenant, and prints what the command prints on the store.
 */
import type { Config } from '../config.ts';
import { errorCodeOf, isVettedError, VettedError } from '../errors.ts';
import type { QueuedSystem } from '../system.ts';
import { withSystem } from './action.ts';

/** The options a command that can go through the API takes. */
export interface ThroughApiOptions {
  api?: string;
  apiKey?: string;
  dataDir?: string;
}

export interface ApiClient {
  readonly url: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

/** Adds --api, --api-key and --data-dir to a command. */
export function withApiOptions<C extends { option(flags: string, description: string): C }>(command: C): C {
  return command
    .option('--api <url>', 'go through this running API (the one `vetted api --embedded` prints) instead of DATABASE_URL')
    .option('--api-key <key>', 'an admin key for --api (default VETTED_API_KEY)')
    .option('--data-dir <dir>', 'the embedded store: go through the API that holds it (`vetted api --embedded --data-dir <dir>`)');
}

/**
 * The API to go through, or undefined to open the store at DATABASE_URL as usual.
 * @throws VettedError naming what to give when --data-dir has no running API, or no key is known.
 */
export async function apiClientFor(options: ThroughApiOptions): Promise<ApiClient | undefined> {
  let url = options.api;
  if (url === undefined && options.dataDir !== undefined) {
    const { findRunningApi } = await import('../embedded/api-file.ts');
    url = findRunningApi(options.dataDir)?.url;
    if (url === undefined) {
      throw new VettedError('SERVICE_UNAVAILABLE', `No API holds the store at ${options.dataDir}: start \`vetted api --embedded --data-dir ${options.dataDir}\` and run this again (it goes through that API), or give --api <url>`, { field: 'data-dir' });
    }
  }
  if (url === undefined) return undefined;
  const key = options.apiKey ?? (await import('../config.ts')).loadConfig().apiKey;
  if (!key) throw new VettedError('INVALID_REQUEST', `The command goes through the API at ${url}, which needs an admin key: give --api-key or set VETTED_API_KEY`, { field: 'api-key' });
  return apiClient(url, key);
}

/**
 * A command that could have gone through an API, run on the store at DATABASE_URL: when that store is not
 * reachable either, the error also says how to reach an embedded store held by a running API.
 */
export async function onStore<T>(fn: (system: QueuedSystem, config: Config) => Promise<T>): Promise<T> {
  try {
    return await withSystem(fn);
  } catch (error) {
    if (!isVettedError(error) || error.code !== 'SERVICE_UNAVAILABLE' || !error.message.startsWith('PostgreSQL is not reachable')) throw error;
    throw new VettedError('SERVICE_UNAVAILABLE', `${error.message}; or, while \`vetted api --embedded\` holds the store, give --data-dir <dir> or --api <url> (and an admin key) to go through it`, { field: error.field, cause: error });
  }
}

/**
 * The tenant a command acts for through the API: the key's own (settings are always the caller's tenant's).
 * A --tenant naming another is refused rather than silently ignored.
 * @throws VettedError INVALID_REQUEST naming `tenant`.
 */
export async function keyTenant(api: ApiClient, given: string | undefined): Promise<string> {
  const { tenantId } = await api.get<{ tenantId: string }>('/api/retention');
  if (given !== undefined && given !== tenantId) {
    throw new VettedError('INVALID_REQUEST', `--tenant ${given}: the API key acts for tenant ${tenantId}, and through a running API a command acts for the key's tenant; give a key of ${given}`, { field: 'tenant' });
  }
  return tenantId;
}

/** --tenant on the store, where nothing else says which tenant. @throws VettedError INVALID_REQUEST naming `tenant`. */
export function requireTenant(given: string | undefined): string {
  if (given === undefined) throw new VettedError('INVALID_REQUEST', "--tenant is required (through a running API, --api or --data-dir, it is the key's own)", { field: 'tenant' });
  return given;
}

export function apiClient(url: string, key: string): ApiClient {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(new URL(path, url), {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new VettedError('SERVICE_UNAVAILABLE', `The API at ${url} does not answer (${(error as Error).message}): start it again, or run the command without --api and --data-dir against DATABASE_URL`, { field: 'api', cause: error });
    }
    const text = await response.text();
    if (!response.ok) throw problemError(url, response.status, text);
    return JSON.parse(text) as T;
  };
  return { url, get: (path) => call('GET', path), post: (path, body) => call('POST', path, body), put: (path, body) => call('PUT', path, body), patch: (path, body) => call('PATCH', path, body), delete: (path) => call('DELETE', path) };
}

/** The API's problem body as the VettedError the store would have thrown; a refused key names --api-key. */
function problemError(url: string, status: number, text: string): VettedError {
  let problem: { code?: string; detail?: string; field?: string } = {};
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // Not a problem body: the status says it.
  }
  if (status === 401 || status === 403) {
    return new VettedError('INVALID_REQUEST', `The API at ${url} refused the key (${status}${problem.detail ? `: ${problem.detail}` : ''}): give an admin key with --api-key or VETTED_API_KEY`, { field: 'api-key' });
  }
  return new VettedError(errorCodeOf(problem.code), problem.detail ?? `The API at ${url} answered ${status}`, { field: problem.field });
}
