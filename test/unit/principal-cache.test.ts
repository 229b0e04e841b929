/**
 * The cache of verified keys: bounded in time (a key revoked elsewhere is refused once more than
 * KEY_CACHE_TTL_MS has passed since it was read, not before) and in entries; forget() refuses at once, also a verification that was under way; a key
 * that failed is never cached, so a key created a moment later works at once.
 */
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/api-keys.ts';
import { cachedPrincipals, KEY_CACHE_TTL_MS } from '../../src/auth/principal-cache.ts';
import { VettedError } from '../../src/errors.ts';

/** A key store whose keys the test revokes, counting the reads it answers. */
function keyStore() {
  const revoked = new Set<string>();
  const reads: string[] = [];
  let gate: Promise<void> | undefined;
  return {
    revoked,
    reads,
    /** Holds every read until the returned function is called. */
    hold(): () => void {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = undefined;
        open();
      };
    },
    async verify(token: string): Promise<Principal> {
      reads.push(token);
      const inFlight = revoked.has(token);
      await gate;
      if (inFlight) throw new VettedError('UNAUTHORIZED', 'The API key is not valid (unknown or revoked)');
      return { keyId: token, tenantId: 't1', role: 'reviewer', permissions: new Set() };
    },
  };
}

function clockAt(ms: number) {
  const clock = { at: ms, now: () => clock.at };
  return clock;
}

describe('verified keys, cached', () => {
  it('a key revoked elsewhere is served for KEY_CACHE_TTL_MS after it was read, and refused the millisecond after', async () => {
    const store = keyStore();
    const clock = clockAt(1_000);
    const principals = cachedPrincipals((token) => store.verify(token), { clock });
    await principals('k1');
    store.revoked.add('k1');
    clock.at += KEY_CACHE_TTL_MS;
    await expect(principals('k1')).resolves.toMatchObject({ keyId: 'k1' });
    expect(store.reads).toEqual(['k1']);
    clock.at += 1;
    await expect(principals('k1')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(principals('k1')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(store.reads).toEqual(['k1', 'k1', 'k1']);
  });

  it('forget() refuses a revoked key on its next look, and keeps no answer read before it', async () => {
    const store = keyStore();
    const principals = cachedPrincipals((token) => store.verify(token), { clock: clockAt(0) });
    await principals('k1');
    store.revoked.add('k1');
    principals.forget();
    await expect(principals('k1')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    // A read under way when the key is revoked here answers its caller, but is not kept.
    const release = store.hold();
    const underWay = principals('k2');
    store.revoked.add('k2');
    principals.forget();
    release();
    await expect(underWay).resolves.toMatchObject({ keyId: 'k2' });
    await expect(principals('k2')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('keeps at most `max` keys, the least recently used going first; a failed key is never kept', async () => {
    const store = keyStore();
    const principals = cachedPrincipals((token) => store.verify(token), { clock: clockAt(0), max: 2 });
    store.revoked.add('new');
    await expect(principals('new')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    store.revoked.delete('new');
    await expect(principals('new')).resolves.toMatchObject({ keyId: 'new' });

    await principals('a');
    await principals('new');
    await principals('b');
    store.reads.length = 0;
    await principals('new');
    await principals('b');
    await principals('a');
    expect(store.reads).toEqual(['a']);
  });
});
