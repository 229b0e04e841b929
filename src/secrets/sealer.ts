/**
 * Secrets at rest: a model's secret-role inputs (`x-cog-secret`, `format: password`, `writeOnly`, or a
 * credential name) are stored sealed with AES-256-GCM under VETTED_DATA_KEY, as one string:
 *
 *   vetted:enc:v1:<keyId>:<base64url(iv ‖ ciphertext ‖ tag)>
 *
 * The key id travels with the value, so a rotated key (`vetted secrets rotate`) and the previous ones
 * (VETTED_DATA_KEYS_PREVIOUS) can open what each sealed. The IV is derived from the value (HMAC-SHA-256 under a
 * key derived from the data key, the SIV construction): the same secret seals to the same string, so
 * payload hashes, provenance checks (a payload value equals the person's edit) and idempotent writes keep
 * working on sealed values, and an IV never repeats for two different values. What that reveals (two runs
 * used the same secret) is the price of those checks.
 *
 * Only the provider call opens a sealed value (src/adapters/sealed.ts); every other reader sees the string.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { VettedError } from '../errors.ts';

export const SEALED_PREFIX = 'vetted:enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export interface DataKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export interface Sealer {
  /** True when a data key is configured (values are sealed); false: values are stored as they are. */
  readonly active: boolean;
  /** The id of the key new values are sealed under. */
  readonly keyId: string | null;
  /** The value sealed under the current key (a sealed value is returned as it is); as it is without a key. */
  seal(value: unknown): unknown;
  /** The value a sealed string holds. @throws VettedError CONFIG_INVALID when its key is unknown or the value was tampered with. */
  open(sealed: string): unknown;
  /** The sealed string again under the current key when another key sealed it; undefined when already current. */
  reseal(sealed: string): string | undefined;
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

/** The key id a sealed value names. */
export function sealedKeyId(sealed: string): string {
  return sealed.slice(SEALED_PREFIX.length).split(':', 1)[0] ?? '';
}

/**
 * @param current the key new values are sealed under (none: nothing is sealed)
 * @param previous older keys that may still have sealed stored values
 */
export function createSealer(current: DataKey | undefined, previous: readonly DataKey[] = []): Sealer {
  const keys = new Map([...previous, ...(current ? [current] : [])].map((key) => [key.id, key.key]));
  const sivKey = current ? Buffer.from(hkdfSync('sha256', current.key, Buffer.alloc(0), 'vetted siv', 32)) : undefined;
  const seal = (value: unknown): unknown => {
    if (!current || !sivKey || isSealed(value)) return value;
    const plain = Buffer.from(JSON.stringify(value ?? null), 'utf8');
    const iv = createHmac('sha256', sivKey).update(plain).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv);
    const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${current.id}:${body.toString('base64url')}`;
  };
  const open = (sealed: string): unknown => {
    const [keyId = '', payload = ''] = sealed.slice(SEALED_PREFIX.length).split(':');
    const key = keys.get(keyId);
    if (!key) {
      throw new VettedError('CONFIG_INVALID', `A stored secret was sealed under data key "${keyId}", which is not configured: set it in VETTED_DATA_KEYS_PREVIOUS (id:key) until \`vetted secrets rotate\` has re-sealed everything`, { field: 'VETTED_DATA_KEYS_PREVIOUS' });
    }
    const body = Buffer.from(payload, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as unknown;
    } catch {
      throw new VettedError('CONFIG_INVALID', `A stored secret sealed under data key "${keyId}" does not open with that key: the key is not the one that sealed it, or the value was altered`, { field: 'VETTED_DATA_KEY' });
    }
  };
  return {
    active: current !== undefined,
    keyId: current?.id ?? null,
    seal,
    open,
    reseal(sealed) {
      if (!current || sealedKeyId(sealed) === current.id) return undefined;
      return seal(open(sealed)) as string;
    },
  };
}

/**
 * A data key from its environment form: 32 bytes as 64 hex digits or base64.
 * @throws VettedError CONFIG_INVALID naming `variable`.
 */
export function parseDataKey(id: string, text: string, variable: string): DataKey {
  if (!KEY_ID.test(id)) throw new VettedError('CONFIG_INVALID', `${variable}: key id "${id}" must be 1-32 letters, digits, _ or -`, { field: variable });
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    throw new VettedError('CONFIG_INVALID', `${variable} must be 32 random bytes, as 64 hex digits or base64 (make one with \`openssl rand -base64 32\`)`, { field: variable });
  }
  return { id, key };
}

/** VETTED_DATA_KEYS_PREVIOUS: `id:key,id:key`. */
export function parsePreviousKeys(text: string | undefined, variable: string): DataKey[] {
  if (!text) return [];
  return text.split(',').map((entry) => {
    const at = entry.indexOf(':');
    if (at < 1) throw new VettedError('CONFIG_INVALID', `${variable} must be a comma-separated list of id:key`, { field: variable });
    return parseDataKey(entry.slice(0, at).trim(), entry.slice(at + 1).trim(), variable);
  });
}

/**
 * `json` with every value under a key in `fields` sealed, at any depth (a payload, an edit list, a provider's
 * echo of its input). Returns the same object when nothing changed.
 */
export function sealFields<T>(sealer: Sealer, json: T, fields: ReadonlySet<string>): T {
  if (!sealer.active || fields.size === 0) return json;
  return mapFields(json, fields, (value) => sealer.seal(value), 0) as T;
}

/** `json` with every sealed string opened (the provider call only). */
export function openSealed<T>(sealer: Sealer, json: T): T {
  return mapStrings(json, (text) => (isSealed(text) ? sealer.open(text) : text), 0) as T;
}

/** `json` with every sealed string re-sealed under the current key; the same object when none needed it. */
export function resealAll<T>(sealer: Sealer, json: T): T {
  return mapStrings(json, (text) => (isSealed(text) ? (sealer.reseal(text) ?? text) : text), 0) as T;
}

const MAX_DEPTH = 64;

function mapFields(value: unknown, fields: ReadonlySet<string>, seal: (value: unknown) => unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => mapFields(item, fields, seal, depth + 1));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const next = fields.has(key) && inner !== null && inner !== undefined && typeof inner !== 'object' ? seal(inner) : mapFields(inner, fields, seal, depth + 1);
    if (next !== inner) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}

function mapStrings(value: unknown, map: (text: string) => unknown, depth: number): unknown {
  if (typeof value === 'string') return map(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => mapStrings(item, map, depth + 1));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const next = mapStrings(inner, map, depth + 1);
    if (next !== inner) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}

/** The sealer the configuration describes (src/config.ts `dataKeys`, already checked there). */
export function sealerFromConfig(dataKeys: { current?: { id: string; key: string }; previous: readonly { id: string; key: string }[] }): Sealer {
  const current = dataKeys.current ? parseDataKey(dataKeys.current.id, dataKeys.current.key, 'VETTED_DATA_KEY') : undefined;
  return createSealer(current, dataKeys.previous.map((key) => parseDataKey(key.id, key.key, 'VETTED_DATA_KEYS_PREVIOUS')));
}

/** The names of a model schema's secret-role inputs (`x-cog-secret`, `format: password`, `writeOnly`, credential names). */
export function secretFieldNames(schema: { fields: readonly { name: string; role: string }[] } | undefined): string[] {
  return (schema?.fields ?? []).filter((field) => field.role === 'secret').map((field) => field.name);
}
