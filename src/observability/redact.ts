/**
 * Secrets never reach a stored snapshot, an event or a log line. Two nets: keys whose names say "secret"
 * (api_key, token, password, authorization...), and the exact secret values the process knows about
 * (OPENAI_API_KEY, REPLICATE_API_TOKEN), wherever they appear in a string.
 */

import { isSealed } from '../secrets/sealer.ts';

export const REDACTED = '[redacted]';

// Whole key names, or a known suffix: `api_key`, `hf_token`, `client_secret`. Plurals are left alone on
// purpose: `max_tokens` and `suppress_tokens` are model settings, not credentials.
const SECRET_KEY_PATTERN =
  /^(authorization|cookie|password|passwd|secret|token|bearer|apikey|credentials?|private[_-]?key|(.*[_-])?(api[_-]?key|secret|password|token|access[_-]?key))$/i;

/** Tokenizer settings, not credentials: `stop_token`, `eos_token`, `pad_token`. */
const TOKENIZER_TOKEN = /^(stop|eos|bos|pad|sep|unk|mask|cls|start|end)[_-]token$/i;

export function isSecretKey(key: string): boolean {
  // camelCase names (`hfToken`, `clientSecret`) are read as if written with `_`.
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
  return SECRET_KEY_PATTERN.test(snake) && !TOKENIZER_TOKEN.test(snake);
}

export interface Redactor {
  <T>(value: T): T;
  /**
   * Masks values under these keys too from now on: the names of models' secret-role inputs, learned as
   * their schemas are used (a `studio_pass` with `format: password` is as secret as an `api_key`).
   */
  learnSecretFields(names: Iterable<string>): void;
}

/**
 * @param knownSecrets exact values to scrub from every string (shorter than 8 characters are ignored,
 *   since scrubbing them would mangle ordinary text).
 */
export function createRedactor(knownSecrets: readonly string[] = []): Redactor {
  const secrets = knownSecrets.filter((s) => s.length >= 8);
  const learned = new Set<string>();
  const scrub = (text: string) => secrets.reduce((acc, secret) => acc.split(secret).join(REDACTED), text);
  const walk = (value: unknown, depth: number, seen: WeakSet<object>): unknown => {
    if (typeof value === 'string') return isSealed(value) ? REDACTED : secrets.length > 0 ? scrub(value) : value;
    if (value === null || typeof value !== 'object' || depth > 32) return value;
    // Errors keep what makes them useful (their message and stack are not enumerable), scrubbed.
    if (value instanceof Error) return walk(errorFields(value), depth, seen);
    // Only plain data is walked: sockets, requests and class instances are left to pino's serializers, and a
    // cycle is cut where it closes.
    if (!Array.isArray(value) && !isPlainData(value)) return value;
    if (seen.has(value)) return '[circular]';
    seen.add(value);
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Only scalar values are secrets; an object under a secret-looking key (a schema property named
      // `hf_token`) is structure, and is walked like any other.
      const scalar = typeof inner === 'string' || typeof inner === 'number';
      out[key] = (isSecretKey(key) || learned.has(key)) && scalar && inner !== '' ? REDACTED : walk(inner, depth + 1, seen);
    }
    return out;
  };
  const redactor = (<T>(value: T): T => walk(value, 0, new WeakSet()) as T) as Redactor;
  redactor.learnSecretFields = (names) => {
    for (const name of names) learned.add(name);
  };
  return redactor;
}

function isPlainData(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function errorFields(error: Error): Record<string, unknown> {
  const extra = error as Error & { code?: unknown; field?: unknown; cause?: unknown };
  return {
    type: error.name,
    message: error.message,
    stack: error.stack,
    ...(extra.code === undefined ? {} : { code: extra.code }),
    ...(extra.field === undefined ? {} : { field: extra.field }),
    ...(extra.cause instanceof Error ? { cause: errorFields(extra.cause) } : {}),
  };
}

/**
 * Query parameters of signed or keyed URLs (S3, GCS, Azure SAS, `?key=`), besides the secret-looking names
 * isSecretKey knows: their values are credentials even though the URL itself is data.
 */
const CREDENTIAL_QUERY_PARAMS: ReadonlySet<string> = new Set([
  'sig', 'signature', 'x-amz-signature', 'x-amz-credential', 'x-amz-security-token', 'x-goog-signature',
  'x-goog-credential', 'key', 'auth', 'access_token', 'id_token', 'code',
]);

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;

/** An http(s) URL with its userinfo and credential-bearing query values replaced by REDACTED. */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (match) => {
    let url: URL;
    try {
      url = new URL(match);
    } catch {
      return match;
    }
    let changed = false;
    if (url.username || url.password) {
      url.username = REDACTED;
      url.password = '';
      changed = true;
    }
    for (const name of [...url.searchParams.keys()]) {
      if (isSecretKey(name) || CREDENTIAL_QUERY_PARAMS.has(name.toLowerCase())) {
        url.searchParams.set(name, REDACTED);
        changed = true;
      }
    }
    return changed ? url.toString() : match;
  });
}

const QUERY_PARAM = /([?&])([\w.~-]+)=([^&#\s"'<>]*)/g;

/**
 * Text with the values of credential-bearing query parameters replaced by REDACTED, wherever a query appears:
 * a whole URL or a bare path (`/api/decision-links?token=v1.…`, as a request line names it). For log lines:
 * an email decision link's token decides a review, so a log or a proxy that keeps it keeps a decision.
 */
export function maskQuerySecrets(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_PARAM, (match, lead: string, name: string, value: string) =>
    value !== '' && value !== REDACTED && (isSecretKey(name) || CREDENTIAL_QUERY_PARAMS.has(name.toLowerCase())) ? `${lead}${name}=${REDACTED}` : match,
  );
}

/** A log line's argument with every string in it passed through maskQuerySecrets (plain data only, as the redactor walks). */
export function maskLoggedQueries<T>(value: T): T {
  const walk = (inner: unknown, depth: number): unknown => {
    if (typeof inner === 'string') return maskQuerySecrets(inner);
    if (inner === null || typeof inner !== 'object' || depth > 32) return inner;
    if (Array.isArray(inner)) return inner.map((item) => walk(item, depth + 1));
    if (!isPlainData(inner)) return inner;
    return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, walk(item, depth + 1)]));
  };
  return walk(value, 0) as T;
}

/**
 * What the API shows of stored data: values under secret-named keys (a model's `hf_token` input, in the
 * request edits, the payload, the result), under `secretFields` (the model's inputs whose role is `secret`,
 * whatever their names) and credentials inside URLs are masked. Storage keeps them, since
 * the provider needs the real values to run; nothing that reads the API needs them.
 */
export function maskForView<T>(value: T, secretFields: ReadonlySet<string> = NO_FIELDS): T {
  const walk = (inner: unknown, depth: number): unknown => {
    if (typeof inner === 'string') return isSealed(inner) ? REDACTED : maskUrlCredentials(inner);
    if (inner === null || typeof inner !== 'object' || depth > 32) return inner;
    if (inner instanceof Date) return inner;
    if (Array.isArray(inner)) return inner.map((item) => walk(item, depth + 1));
    if (!isPlainData(inner)) return inner;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(inner)) {
      const scalar = typeof item === 'string' || typeof item === 'number';
      out[key] = (isSecretKey(key) || secretFields.has(key)) && scalar && item !== '' ? REDACTED : walk(item, depth + 1);
    }
    return out;
  };
  return walk(value, 0) as T;
}

const NO_FIELDS: ReadonlySet<string> = new Set();
