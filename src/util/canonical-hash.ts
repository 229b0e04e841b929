import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';

const stableStringify = configure({ deterministic: true, circularValue: Error, bigint: true });

/** JSON with object keys sorted, so equal values always serialise (and hash) the same way. */
export function canonicalJson(value: unknown): string {
  return stableStringify(value) ?? 'null';
}

/** sha256 hex of the canonical JSON of a value: schema hashes, payload hashes, content-addressed cache keys. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
