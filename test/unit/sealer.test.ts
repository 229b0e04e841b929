/** Secrets at rest: sealing (AES-256-GCM, key id in the value), opening, re-sealing, and where sealed values are masked. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createRedactor, maskForView, REDACTED } from '../../src/observability/redact.ts';
import { createSealer, isSealed, openSealed, parseDataKey, resealAll, sealedKeyId, sealFields } from '../../src/secrets/sealer.ts';
import { assertSecretsStorable } from '../../src/secrets/storable.ts';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

describe('sealer', () => {
  it('seals a value into a string naming its key, opens it, and seals the same value the same way', () => {
    const sealer = createSealer(k1);
    const sealed = sealer.seal('hunter2-the-password') as string;
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('hunter2');
    expect(sealedKeyId(sealed)).toBe('k1');
    expect(sealer.open(sealed)).toBe('hunter2-the-password');
    expect(sealer.seal('hunter2-the-password')).toBe(sealed);
    expect(sealer.seal(sealed)).toBe(sealed);
    expect(sealer.seal('another')).not.toBe(sealed);
    expect(sealer.open(sealer.seal(42) as string)).toBe(42);
  });

  it('refuses a tampered value and a value sealed under a key it does not have, naming the variable', () => {
    const sealed = createSealer(k1).seal('secret') as string;
    const tampered = sealed.slice(0, -3) + (sealed.endsWith('A') ? 'BBB' : 'AAA');
    expect(() => createSealer(k1).open(tampered)).toThrow(/does not open/);
    expect(() => createSealer(k2).open(sealed)).toThrow(/VETTED_DATA_KEYS_PREVIOUS/);
  });

  it('re-seals under the current key with the previous one configured, and leaves current values alone', () => {
    const old = createSealer(k1).seal('rotate me') as string;
    const rotated = createSealer(k2, [k1]);
    const again = rotated.reseal(old)!;
    expect(sealedKeyId(again)).toBe('k2');
    expect(rotated.open(again)).toBe('rotate me');
    expect(rotated.reseal(again)).toBeUndefined();
    const doc = { a: [{ b: old }], c: 'plain' };
    expect(resealAll(rotated, doc)).toEqual({ a: [{ b: again }], c: 'plain' });
    const current = { a: again };
    expect(resealAll(rotated, current)).toBe(current);
  });

  it('seals only the named fields at any depth, and opens them all', () => {
    const sealer = createSealer(k1);
    const doc = { payload: { studio_pass: 'pw-1', prompt: 'a cat' }, output: { input: { studio_pass: 'pw-1' } }, n: [1] };
    const sealed = sealFields(sealer, doc, new Set(['studio_pass']));
    expect(sealed.payload.prompt).toBe('a cat');
    expect(isSealed(sealed.payload.studio_pass)).toBe(true);
    expect(sealed.output.input.studio_pass).toBe(sealed.payload.studio_pass);
    expect(openSealed(sealer, sealed)).toEqual(doc);
    expect(sealFields(createSealer(undefined), doc, new Set(['studio_pass']))).toBe(doc);
  });

  it('parses keys from hex or base64 (32 bytes) and names the variable otherwise; config checks them at start-up', () => {
    expect(parseDataKey('k1', k1.key.toString('hex'), 'VETTED_DATA_KEY').key).toEqual(k1.key);
    expect(parseDataKey('k1', k1.key.toString('base64'), 'VETTED_DATA_KEY').key).toEqual(k1.key);
    expect(() => parseDataKey('k1', 'too-short', 'VETTED_DATA_KEY')).toThrow(/VETTED_DATA_KEY must be 32 random bytes/);
    expect(() => loadConfig({ VETTED_DATA_KEY: 'abc' })).toThrow(/VETTED_DATA_KEY/);
    expect(() => loadConfig({ VETTED_DATA_KEY: k1.key.toString('base64'), VETTED_DATA_KEYS_PREVIOUS: `k1:${k2.key.toString('base64')}` })).toThrow(/new id/);
    const config = loadConfig({ VETTED_DATA_KEY: k2.key.toString('base64'), VETTED_DATA_KEY_ID: 'k2', VETTED_DATA_KEYS_PREVIOUS: `k1:${k1.key.toString('base64')}`, NODE_ENV: 'production' });
    expect(config.dataKeys.current?.id).toBe('k2');
    expect(config.dataKeys.previous.map((key) => key.id)).toEqual(['k1']);
    expect(config.production).toBe(true);
  });
});

describe('masking sealed and secret-role values', () => {
  it('the API view and the log redactor mask sealed strings; the redactor learns secret-role names', () => {
    const sealed = createSealer(k1).seal('pw') as string;
    expect(maskForView({ studio_pass: sealed, note: `x` })).toEqual({ studio_pass: REDACTED, note: 'x' });
    const redact = createRedactor();
    expect(redact({ studio_pass: 'pw-plain', other: sealed })).toEqual({ studio_pass: 'pw-plain', other: REDACTED });
    redact.learnSecretFields(['studio_pass']);
    expect(redact({ edits: { studio_pass: 'pw-plain' } })).toEqual({ edits: { studio_pass: REDACTED } });
  });

  it('production without a data key refuses a secret-role value, naming the field; with a key or outside production it is allowed', () => {
    const schema = { fields: [{ name: 'studio_pass', role: 'secret' }, { name: 'prompt', role: 'prompt' }] };
    const none = { current: undefined, previous: [] };
    expect(() => assertSecretsStorable({ production: true, dataKeys: none }, schema, { studio_pass: 'x' }, 'edits')).toThrow(expect.objectContaining({ code: 'DATA_KEY_MISSING', field: 'edits.studio_pass' }));
    expect(() => assertSecretsStorable({ production: true, dataKeys: none }, schema, { prompt: 'x' }, 'edits')).not.toThrow();
    expect(() => assertSecretsStorable({ production: false, dataKeys: none }, schema, { studio_pass: 'x' }, 'edits')).not.toThrow();
    expect(() => assertSecretsStorable({ production: true, dataKeys: { current: { id: 'k1', key: 'x' }, previous: [] } }, schema, { studio_pass: 'x' }, 'edits')).not.toThrow();
  });
});
