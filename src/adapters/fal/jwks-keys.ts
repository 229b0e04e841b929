/**
 * fal's webhook signing keys, read from its JWKS (`VETTED_FAL_JWKS_URL`, by default
 * https://rest.alpha.fal.ai/.well-known/jwks.json) and kept for an hour. A delivery no cached key verifies may
 * be signed with a key fal has just added (a rotation), so the set is read again then, but at most once a
 * minute: forged deliveries cannot make this process hammer fal. Bounded: at most 16 keys are kept, the
 * document read is at most 64 KB, and a read gives up after 5 s.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { VettedError } from '../../errors.ts';

export const FAL_DEFAULT_JWKS_URL = 'https://rest.alpha.fal.ai/.well-known/jwks.json';

export interface FalSigningKeys {
  /** The cached keys, read first when there are none or they are older than the cache's lifetime. */
  current(): Promise<readonly KeyObject[]>;
  /** The keys read again, or undefined when they were read less than a minute ago (nothing new to try). */
  refreshed(): Promise<readonly KeyObject[] | undefined>;
}

export interface JwksOptions {
  url: string;
  fetch?: typeof fetch;
  /** The clock (tests pass a fake one). */
  now?: () => number;
  ttlMs?: number;
  minRefreshMs?: number;
}

const MAX_KEYS = 16;
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;

export function createJwksKeys(options: JwksOptions): FalSigningKeys {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 60 * 60_000;
  const minRefreshMs = options.minRefreshMs ?? 60_000;
  let cached: { keys: readonly KeyObject[]; at: number } | undefined;
  let reading: Promise<readonly KeyObject[]> | undefined;

  // One read at a time: a burst of deliveries waits on the same request.
  const read = () => {
    reading ??= readJwks(options.url, options.fetch ?? fetch)
      .then((keys) => {
        cached = { keys, at: now() };
        return keys;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  return {
    current: async () => (cached && now() - cached.at < ttlMs ? cached.keys : read()),
    refreshed: async () => (cached && now() - cached.at < minRefreshMs ? undefined : read()),
  };
}

async function readJwks(url: string, fetcher: typeof fetch): Promise<readonly KeyObject[]> {
  const failed = (why: string) => new VettedError('PROVIDER_UNAVAILABLE', `fal's webhook signing keys could not be read from ${url}: ${why}`);
  let text: string;
  try {
    const response = await fetcher(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error', headers: { accept: 'application/json' } });
    if (!response.ok) throw failed(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    throw error instanceof VettedError ? error : failed(error instanceof Error ? error.message : String(error));
  }
  if (text.length > MAX_BYTES) throw failed(`the document is larger than ${MAX_BYTES / 1024} KB`);
  const keys = ed25519Keys(parse(text));
  if (keys.length === 0) throw failed('it lists no Ed25519 key');
  return keys;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The Ed25519 public keys of a JWKS (`kty` OKP, `crv` Ed25519, `x`), the first MAX_KEYS of them. */
export function ed25519Keys(document: unknown): KeyObject[] {
  const entries = (document as { keys?: unknown } | undefined)?.keys;
  if (!Array.isArray(entries)) return [];
  const keys: KeyObject[] = [];
  for (const entry of entries) {
    if (keys.length >= MAX_KEYS) break;
    const jwk = entry as { kty?: unknown; crv?: unknown; x?: unknown };
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    try {
      keys.push(createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
    } catch {
      // A malformed entry verifies nothing; the others still count.
    }
  }
  return keys;
}
