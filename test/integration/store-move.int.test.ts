/**
 * From one process to a fleet: a team's embedded store (PGlite) moves to PostgreSQL with every row, verified
 * by counts and hashes; the queued system (PostgreSQL + Redis) started on it decides a review that was parked
 * before the move, and the run completes. The move refuses a target that holds data unless told to replace
 * it, and the same copy brings a PostgreSQL store back into a new embedded one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as runCliIn, VETTED_BIN as BIN } from '../support/cli-process.ts';
import { loadConfig } from '../../src/config.ts';
import { createEmbeddedSystem } from '../../src/embedded/embedded-system.ts';
import { backupStore, checkStore, moveStore, restoreStore } from '../../src/embedded/store.ts';
import { decide } from '../../src/review/decide-on-run.ts';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../support/databases.ts';
import { registerExamples, settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, eventually } from '../support/test-system.ts';
import { startWorkers } from '../../workers/start-workers.ts';

const home = mkdtempSync(path.join(tmpdir(), 'vetted-store-move-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const embeddedConfig = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://127.0.0.1:1/unused', REDIS_URL: 'redis://127.0.0.1:1' });

/** A small team's store: a completed run, a parked one, a reviewer and a key. @returns the parked run's id. */
async function fillEmbeddedStore(dataDir: string): Promise<string> {
  const system = await createEmbeddedSystem(embeddedConfig, { dataDir });
  try {
    await registerExamples(system);
    const reviewer = await system.reviewers.create({ tenantId: TENANT, name: 'Ada', role: 'reviewer' });
    await system.apiKeys.create({ tenantId: TENANT, role: 'reviewer', reviewerId: reviewer.id, label: 'ada' });
    const done = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=1' });
    expect((await settle(system, done.id)).status).toBe('completed');
    const parked = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=2', policy: 'require_human' });
    expect((await settle(system, parked.id)).status).toBe('awaiting_human');
    return parked.id;
  } finally {
    await system.close();
  }
}

const runCli = (args: string[], env: Record<string, string> = {}) => runCliIn(home, args, env);

describe('vetted store move', () => {
  it('moves an embedded store to PostgreSQL, where the queued system decides a review parked before the move', async () => {
    const dataDir = path.join(home, 'team');
    const parkedId = await fillEmbeddedStore(dataDir);
    const before = await checkStore(dataDir);
    const count = (table: string) => before.find((row) => row.table === table)?.rows;
    expect(count('runs')).toBe(2);
    expect(count('run_events')).toBeGreaterThan(5);
    expect(count('api_keys')).toBe(1);
    expect(count('reviewers')).toBe(1);

    const database = await createTestDatabase();
    const moved = await runCli(['store', 'move', '--from', dataDir, '--to', databaseUrl(database)]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/copied \d+ rows in \d+ tables .* counts and hashes match/);
    expect(moved.stdout).toBe(before.map((row) => `${row.table}\t${row.rows}\t${row.hash}\n`).join(''));
    expect(await checkStore(databaseUrl(database))).toEqual(before);

    // A second move onto the filled target is refused, and leaves it as it was.
    await expect(moveStore({ from: dataDir, to: databaseUrl(database) })).rejects.toThrow(/target store is not empty \(.*runs.*\).*--replace/);
    expect(await checkStore(databaseUrl(database))).toEqual(before);

    const system = await createTestSystem({}, { database });
    const workers = startWorkers(system);
    try {
      const parked = await system.store.get(parkedId);
      expect(parked?.status).toBe('awaiting_human');
      await decide(system, { runId: parkedId, tenantId: TENANT, actor: { id: 'reviewer:ada', canOverride: false }, body: { reviewId: parked!.pendingReview!.reviewId, action: 'approve' } });
      expect((await settle(system, parkedId)).status).toBe('completed');
      // New events continue after the copied ones: the sequences were carried over.
      const events = await system.store.events(parkedId, { limit: 100 });
      expect(events.map((event) => event.type)).toContain('run.completed');
    } finally {
      await workers.close();
      await system.dispose();
    }
  }, 240_000);

  it('brings a PostgreSQL store back into a new embedded one, replacing a target only when told', async () => {
    const database = await createTestDatabase();
    try {
      const source = path.join(home, 'source');
      await fillEmbeddedStore(source);
      await moveStore({ from: source, to: databaseUrl(database) });
      const back = path.join(home, 'back');
      await fillEmbeddedStore(back);
      await expect(moveStore({ from: databaseUrl(database), to: back })).rejects.toThrow(/not empty/);
      const summary = await moveStore({ from: databaseUrl(database), to: back, replace: true });
      expect(summary).toEqual(await checkStore(source));
      expect(await checkStore(back)).toEqual(summary);
    } finally {
      await dropTestDatabase(database);
    }
  }, 240_000);

  it('refuses to move a store onto itself', async () => {
    await expect(moveStore({ from: path.join(home, 'x'), to: path.join(home, 'x', '.') })).rejects.toThrow(/same store/);
  });
});

describe('vetted store backup and restore', () => {
  it('restores a backup into a new directory with every row, and never over an existing store', async () => {
    const dataDir = path.join(home, 'backed-up');
    await fillEmbeddedStore(dataDir);
    const file = path.join(home, 'backup.tar.gz');
    const summary = await backupStore(dataDir, file);
    expect(summary.find((row) => row.table === 'runs')?.rows).toBe(2);
    const restored = path.join(home, 'restored');
    expect(await restoreStore(file, restored)).toEqual(summary);
    await expect(restoreStore(file, restored)).rejects.toThrow(/restored is not empty/);
    await expect(restoreStore(path.join(home, 'missing.tar.gz'), path.join(home, 'nowhere'))).rejects.toThrow(/cannot be read \(ENOENT\)/);
  }, 240_000);
});

describe('vetted store backup while the embedded API runs', () => {
  it('takes the backup through the API that holds the store, found from the data directory', async () => {
    const dataDir = path.join(home, 'live');
    const api = spawn('node', [BIN, 'api', '--embedded', '--port', '0', '--data-dir', dataDir, '--model', 'examples/models/flux-schnell.model.json'], {
      env: { ...process.env, HOME: home, LOG_LEVEL: 'info', DATABASE_URL: 'postgres://127.0.0.1:1/nowhere', REDIS_URL: 'redis://127.0.0.1:1' },
    });
    let output = '';
    api.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    api.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const closed = new Promise((resolve) => api.on('close', resolve));
    const file = path.join(home, 'live.tar.gz');
    try {
      const url = await eventually(async () => /API listening on (http:\/\/\S+) /.exec(output)?.[1], 120_000, `the API to listen (${output})`);
      const key = /keep it\): (\S+)/.exec(output)?.[1];
      expect(key).toBeDefined();

      const keyless = await runCli(['store', 'backup', '--data-dir', dataDir, '--out', file]);
      expect(keyless.code).toBe(2);
      expect(keyless.stderr).toContain(`is held by the embedded API at ${url}: the backup is taken through it, with an admin key (--api-key or VETTED_API_KEY)`);

      const taken = await runCli(['store', 'backup', '--data-dir', dataDir, '--out', file], { VETTED_API_KEY: key! });
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stderr).toContain(`backup of the store held by the API at ${url} written to ${file}`);
    } finally {
      api.kill('SIGTERM');
      await closed;
    }
    const restored = await restoreStore(file, path.join(home, 'live-restored'));
    expect(restored.find((row) => row.table === 'api_keys')?.rows).toBe(1);
    expect(restored.find((row) => row.table === 'models')?.rows).toBeGreaterThan(0);
    expect(restored).toEqual(await checkStore(dataDir));
  }, 240_000);
});
