/**
 * The CLI while `vetted api --embedded` holds the store: `vetted runs`, `vetted run` and `vetted decide` find
 * the API beside the data directory's lock and go through it with an admin key, printing what they print on
 * the store; without a key, or without an API holding the directory, the error says what to give.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as runCliIn } from '../support/cli-process.ts';
import { startEmbeddedApi } from '../support/embedded-api.ts';
import { loadConfig } from '../../src/config.ts';
import { createEmbeddedSystem } from '../../src/embedded/embedded-system.ts';
import { exampleModel, settle, submit } from '../support/pipeline.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { eventually } from '../support/test-system.ts';

const home = mkdtempSync(path.join(tmpdir(), 'vetted-cli-api-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://127.0.0.1:1/unused', REDIS_URL: 'redis://127.0.0.1:1' });

const runCli = (args: string[], env: Record<string, string> = {}) => runCliIn(home, args, env);

describe('the CLI through a running embedded API', () => {
  it('lists runs, shows one and decides a parked review through the API found from --data-dir', async () => {
    const dataDir = path.join(home, 'team');
    const system = await createEmbeddedSystem(config, { dataDir });
    let parkedId: string;
    let doneId: string;
    try {
      await registerModel(system, { tenantId: 'default', source: exampleModel('flux-schnell.model.json') });
      doneId = (await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=1' }, 'default')).id, ['completed'])).id;
      parkedId = (await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=2', policy: 'require_human' }, 'default')).id, ['awaiting_human'])).id;
    } finally {
      await system.close();
    }

    const api = await startEmbeddedApi(home, dataDir);
    try {
      const { url, adminKey: key } = api;
      const withKey = { VETTED_API_KEY: key };

      const keyless = await runCli(['runs', '--data-dir', dataDir]);
      expect(keyless.code).toBe(2);
      expect(keyless.stderr).toContain(`The command goes through the API at ${url}, which needs an admin key: give --api-key or set VETTED_API_KEY`);

      const listed = await runCli(['runs', '--data-dir', dataDir], withKey);
      expect(listed.code, listed.stderr).toBe(0);
      const lines = listed.stdout.split('\n');
      expect(lines.find((line) => line.includes(doneId))).toMatch(/'completed'.*'black-forest-labs\/flux-schnell'/);
      expect(lines.find((line) => line.includes(parkedId))).toMatch(/'awaiting_human'.*'black-forest-labs\/flux-schnell'/);
      expect(lines.findIndex((line) => line.includes(parkedId))).toBeLessThan(lines.findIndex((line) => line.includes(doneId)));

      const shown = await runCli(['run', parkedId, '--api', url, '--api-key', key]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toMatchObject({ id: parkedId, status: 'awaiting_human' });
      expect(JSON.parse(shown.stdout)).not.toHaveProperty('links');

      const decided = await runCli(['decide', parkedId, '--action', 'approve', '--data-dir', dataDir], withKey);
      expect(decided.code, decided.stderr).toBe(0);
      expect(decided.stdout.trim()).toMatch(new RegExp(`^execute: run ${parkedId} is now \\w+$`));
      await eventually(async () => {
        const again = await runCli(['run', parkedId, '--data-dir', dataDir], withKey);
        return (JSON.parse(again.stdout) as { status: string }).status === 'completed' ? true : undefined;
      }, 60_000, 'the approved run to complete');

      const nowhere = await runCli(['runs', '--data-dir', path.join(home, 'none')], withKey);
      expect(nowhere.code).not.toBe(0);
      expect(nowhere.stderr).toContain(`No API holds the store at ${path.join(home, 'none')}: start \`vetted api --embedded --data-dir ${path.join(home, 'none')}\``);
    } finally {
      await api.stop();
    }
  }, 300_000);
});
