/**
 * The catalog's resolved references (src/catalog/ref-cache.ts) against PostgreSQL: a run's model is resolved
 * without a read while the answer is cached; a reference re-pointed by another process (the CLI registering a
 * new version: here a statement on the table itself) is seen once more than REF_CACHE_TTL_MS has passed on the
 * system's clock since this process read it, and not before; one registered through this process at once.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { REF_CACHE_TTL_MS } from '../../src/catalog/ref-cache.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';
import { statementLog } from '../support/statement-count.ts';

const clock = { at: Date.parse('2026-11-27T21:00:00.000Z') };
let system: TestSystem;
let pictures: string;
let sounds: string;

const source = async (file: string) => JSON.parse(await readFile(new URL(`../../examples/models/${file}`, import.meta.url), 'utf8')) as unknown;

beforeAll(async () => {
  system = await createTestSystem({}, { clock: { now: () => new Date(clock.at) } });
  pictures = (await registerModel(system, { tenantId: 't1', source: await source('flux-schnell.model.json'), ref: 'acme/pictures' })).schemaKey;
  sounds = (await registerModel(system, { tenantId: 't1', source: await source('whisper.version.json'), ref: 'acme/sounds' })).schemaKey;
});

afterAll(async () => {
  await system?.dispose();
});

/** Another process re-points the reference: the table changes, this process's cache is not told. */
async function repointElsewhere(ref: string, schemaKey: string): Promise<void> {
  await system.database.pool.query('update models set schema_key = $1 where tenant_id = $2 and ref = $3', [schemaKey, 't1', ref]);
}

describe('resolved catalog references, cached', () => {
  it('answers from the cache for REF_CACHE_TTL_MS after the read, and reads the re-pointed reference the millisecond after', async () => {
    expect(await system.models.resolveRef('t1', 'acme/pictures')).toMatchObject({ schemaKey: pictures });
    const cached = statementLog();
    expect(await cached.during(() => system.models.resolveRef('t1', 'acme/pictures'))).toMatchObject({ schemaKey: pictures });
    expect(cached.statements).toEqual([]);

    await repointElsewhere('acme/pictures', sounds);
    clock.at += REF_CACHE_TTL_MS;
    expect(await system.models.resolveRef('t1', 'acme/pictures')).toMatchObject({ schemaKey: pictures });
    clock.at += 1;
    const fresh = statementLog();
    expect(await fresh.during(() => system.models.resolveRef('t1', 'acme/pictures'))).toMatchObject({ schemaKey: sounds });
    expect(fresh.statements).toHaveLength(1);
  });

  it('a reference registered through this process is answered anew at once', async () => {
    expect(await system.models.resolveRef('t1', 'acme/sounds')).toMatchObject({ schemaKey: sounds });
    await registerModel(system, { tenantId: 't1', source: await source('flux-schnell.model.json'), ref: 'acme/sounds' });
    expect(await system.models.resolveRef('t1', 'acme/sounds')).toMatchObject({ schemaKey: pictures });
  });
});
