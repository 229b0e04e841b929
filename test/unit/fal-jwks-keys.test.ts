import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createJwksKeys } from '../../src/adapters/fal/jwks-keys.ts';

const jwk = () => ({ ...(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: 'k' });

describe("fal's webhook keys", () => {
  it('are cached, read again on a miss at most once a minute (a rotation), and bounded', async () => {
    let published = [jwk()];
    let reads = 0;
    let clock = 0;
    const fetcher = (async () => {
      reads += 1;
      return new Response(JSON.stringify({ keys: published }));
    }) as typeof fetch;
    const keys = createJwksKeys({ url: 'https://keys.example/jwks.json', fetch: fetcher, now: () => clock });
    expect(await keys.current()).toHaveLength(1);
    expect(await keys.current()).toHaveLength(1);
    expect(reads).toBe(1);
    published = [...published, jwk()];
    clock = 30_000;
    expect(await keys.refreshed()).toBeUndefined();
    clock = 61_000;
    expect(await keys.refreshed()).toHaveLength(2);
    expect(reads).toBe(2);
    published = Array.from({ length: 40 }, jwk);
    clock += 61 * 60_000;
    expect(await keys.current()).toHaveLength(16);
  });

  it('says why the keys cannot be read', async () => {
    const keys = createJwksKeys({ url: 'https://keys.example/jwks.json', fetch: (async () => new Response('{"keys":[{"kty":"RSA"}]}')) as typeof fetch });
    await expect(keys.current()).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('lists no Ed25519 key') });
  });
});
