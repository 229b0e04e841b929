/**
 * The cache of resolved catalog references: bounded in time (a reference re-pointed elsewhere is seen once more
 * than REF_CACHE_TTL_MS has passed since it was read, not before, on the system's clock) and in entries;
 * forget() drops every answer at once, also a read that was under way; a reference not found is never kept.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CatalogRef } from '../../src/catalog/catalog-store.ts';
import { createRefCache, REF_CACHE_TTL_MS } from '../../src/catalog/ref-cache.ts';

/** A catalog whose references the test re-points, counting the reads it answers. */
function catalog() {
  const points = new Map<string, string>();
  const reads: string[] = [];
  let gate: Promise<void> | undefined;
  return {
    points,
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
    read(ref: string): () => Promise<CatalogRef | undefined> {
      return async () => {
        reads.push(ref);
        const schemaKey = points.get(ref);
        await gate;
        return schemaKey === undefined ? undefined : { tenantId: 't1', ref, schemaKey };
      };
    },
  };
}

function clockAt(ms: number) {
  const clock = { at: ms, now: () => clock.at };
  return clock;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('resolved catalog references, cached', () => {
  it('a reference re-pointed elsewhere is answered from the cache for REF_CACHE_TTL_MS after it was read, and read again the millisecond after', async () => {
    const models = catalog();
    const clock = clockAt(50_000);
    const refs = createRefCache({ clock });
    models.points.set('acme/flux', 'key-1');
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-1' });
    models.points.set('acme/flux', 'key-2');
    clock.at += REF_CACHE_TTL_MS;
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-1' });
    expect(models.reads).toEqual(['acme/flux']);
    clock.at += 1;
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-2' });
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-2' });
    expect(models.reads).toEqual(['acme/flux', 'acme/flux']);
  });

  it('runs on the system clock by default: moving it (fake timers) past the bound reads again', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T21:00:00.000Z') });
    const models = catalog();
    const refs = createRefCache();
    models.points.set('acme/flux', 'key-1');
    await refs.resolve('t1', 'acme/flux', models.read('acme/flux'));
    models.points.set('acme/flux', 'key-2');
    vi.setSystemTime(Date.now() + REF_CACHE_TTL_MS);
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-1' });
    vi.setSystemTime(Date.now() + 1);
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-2' });
    expect(models.reads).toHaveLength(2);
  });

  it('forget() answers from a fresh read at once, and keeps no answer read before it', async () => {
    const models = catalog();
    const refs = createRefCache({ clock: clockAt(0) });
    models.points.set('acme/flux', 'key-1');
    await refs.resolve('t1', 'acme/flux', models.read('acme/flux'));
    models.points.set('acme/flux', 'key-2');
    refs.forget();
    expect(await refs.resolve('t1', 'acme/flux', models.read('acme/flux'))).toMatchObject({ schemaKey: 'key-2' });

    // A read under way when the reference is re-pointed here answers its caller, but is not kept.
    models.points.set('acme/sdxl', 'old');
    const release = models.hold();
    const underWay = refs.resolve('t1', 'acme/sdxl', models.read('acme/sdxl'));
    models.points.set('acme/sdxl', 'new');
    refs.forget();
    release();
    expect(await underWay).toMatchObject({ schemaKey: 'old' });
    expect(await refs.resolve('t1', 'acme/sdxl', models.read('acme/sdxl'))).toMatchObject({ schemaKey: 'new' });
  });

  it('keeps answers per tenant, at most `max` of them, the least recently used going first; a reference not found is never kept', async () => {
    const models = catalog();
    const refs = createRefCache({ clock: clockAt(0), max: 2 });
    expect(await refs.resolve('t1', 'acme/new', models.read('acme/new'))).toBeUndefined();
    models.points.set('acme/new', 'key-new');
    expect(await refs.resolve('t1', 'acme/new', models.read('acme/new'))).toMatchObject({ schemaKey: 'key-new' });

    models.points.set('acme/a', 'key-a');
    await refs.resolve('t1', 'acme/a', models.read('acme/a'));
    await refs.resolve('t1', 'acme/new', models.read('acme/new'));
    await refs.resolve('t2', 'acme/new', models.read('acme/new'));
    models.reads.length = 0;
    await refs.resolve('t1', 'acme/new', models.read('acme/new'));
    await refs.resolve('t2', 'acme/new', models.read('acme/new'));
    await refs.resolve('t1', 'acme/a', models.read('acme/a'));
    expect(models.reads).toEqual(['acme/a']);
  });
});
