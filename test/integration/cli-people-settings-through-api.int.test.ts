/**
 * `vetted reviewers`, `vetted retention`, `vetted notifications` and `vetted reply` while `vetted api --embedded`
 * holds the store: they go through the API found from --data-dir with an admin key and print what the same
 * commands print on PostgreSQL (ids and who changed what aside); a bad field is named, a reviewer key is refused,
 * and without a store or an API the error says what to give.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { loadConfig } from '../../src/config.ts';
import { createEmbeddedSystem } from '../../src/embedded/embedded-system.ts';
import { runCli as runCliIn } from '../support/cli-process.ts';
import { startEmbeddedApi } from '../support/embedded-api.ts';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../support/databases.ts';
import { exampleModel, settle, submit } from '../support/pipeline.ts';

const home = mkdtempSync(path.join(tmpdir(), 'vetted-cli-people-'));
const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://127.0.0.1:1/unused', REDIS_URL: 'redis://127.0.0.1:1' });
let database: string;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  rmSync(home, { recursive: true, force: true });
  await dropTestDatabase(database);
});

const runCli = (args: string[], env: Record<string, string> = {}) => runCliIn(home, args, env);

/** The commands, with `<dir>`/`<id>` filled in: first on the store, then through the API. */
const T = ['--tenant', 'default'];
const SCRIPT = [
  ['reviewers', 'add', ...T, '--name', 'Ada Lovelace', '--role', 'reviewer', '--team', 'ops', '--email', 'Ada@example.com'],
  ['reviewers', 'add', ...T, '--name', 'Grace Hopper', '--role', 'admin', '--slack-user', 'U024BE7LH'],
  ['reviewers', 'list', ...T],
  ['reviewers', 'set-unavailable', '<ada>'],
  ['retention', 'set', ...T, '--documents-days', '30', '--mask-pii'],
  ['retention', 'set', ...T, '--keep-forever'],
  ['retention', 'list'],
  ['notifications', 'set', ...T, '--near-expiry-seconds', '120', '--events', 'waiting,expired'],
  ['notifications', 'show', ...T],
  ['reviewers', 'remove', '<ada>'],
  ['reviewers', 'list', ...T],
];

/** Each command's stdout and stderr, with what differs by nature (ids, times, who changed it) masked. */
async function play(extra: string[], env: Record<string, string>): Promise<string[]> {
  const printed: string[] = [];
  let ada = '';
  for (const step of SCRIPT) {
    const args = step.map((arg) => (arg === '<ada>' ? ada : arg));
    const done = await runCli([...args, ...extra], env);
    expect(done.code, `${args.join(' ')}: ${done.stderr}`).toBe(0);
    if (args[1] === 'add' && ada === '') ada = done.stdout.trim();
    printed.push(mask(`${done.stdout}${done.stderr}`));
  }
  return printed;
}

function mask(text: string): string {
  return text
    .replace(/rv_[a-z0-9]{12}/g, 'rv_…')
    .replace(/vt_[a-z0-9]{12}|(?<=keys revoked: )[a-z0-9]{12}/g, 'key…')
    .replace(/"updatedAt": "[^"]+"/g, '"updatedAt": "…"')
    .replace(/(cli:[A-Za-z0-9._-]+|key:[a-z0-9]{12})/g, 'actor')
    .replace(/[ ─-]+/g, ' ');
}

describe('people and settings through a running embedded API', () => {
  it('print what they print on the store, and reply answers a parked run', async () => {
    const onStore = { DATABASE_URL: databaseUrl(database), REDIS_URL: process.env.VETTED_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
    const direct = await play([], onStore);

    const dataDir = path.join(home, 'team');
    const system = await createEmbeddedSystem(config, { dataDir });
    let parkedId: string;
    try {
      await registerModel(system, { tenantId: 'default', source: exampleModel('flux-schnell.model.json') });
      parkedId = (await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=2', policy: 'require_human' }, 'default')).id, ['awaiting_human'])).id;
    } finally {
      await system.close();
    }
    const api = await startEmbeddedApi(home, dataDir);
    try {
      const admin = { VETTED_API_KEY: api.adminKey };
      const through = await play(['--data-dir', dataDir], admin);
      expect(through).toEqual(direct);
      expect(through[2]).toMatch(/Ada Lovelace.*reviewer.*ops.*true.*ada@example\.com/);
      expect(through[4]).toContain('tenant default: documents purged 30 days after a run ends; PII masking on');
      expect(JSON.parse(through[8]!)).toMatchObject({ nearExpirySeconds: 120, events: ['waiting', 'expired'] });
      expect(through[9]).toMatch(/^removed Ada Lovelace \(rv_…\); they had no key in force/);
      expect(through[10]).not.toContain('Ada');

      const badEmail = await runCli(['reviewers', 'add', '--name', 'Sam', '--role', 'reviewer', '--email', 'not-an-address', '--data-dir', dataDir], admin);
      expect(badEmail.code).toBe(2);
      expect(badEmail.stderr).toMatch(/email/);
      const otherTenant = await runCli(['retention', 'set', '--tenant', 'acme', '--documents-days', '7', '--data-dir', dataDir], admin);
      expect(otherTenant.code).toBe(2);
      expect(otherTenant.stderr).toContain('--tenant acme: the API key acts for tenant default');

      const sam = (await runCli(['reviewers', 'add', '--name', 'Sam', '--role', 'reviewer', '--data-dir', dataDir], admin)).stdout.trim();
      const samKey = (await runCli(['keys', 'create', '--reviewer', sam, '--data-dir', dataDir], admin)).stdout.trim();
      const byReviewer = await runCli(['reviewers', 'add', '--name', 'Eve', '--role', 'admin', '--data-dir', dataDir], { VETTED_API_KEY: samKey });
      expect(byReviewer.stderr).toContain('needs reviewers:manage');
      const removed = await runCli(['reviewers', 'remove', sam, '--data-dir', dataDir], admin);
      expect(removed.stdout).toContain(`removed Sam (${sam}); keys revoked: ${samKey.slice(3, 15)}`);
      expect((await runCli(['runs', '--data-dir', dataDir], { VETTED_API_KEY: samKey })).stderr).toContain('refused the key (401');

      const replied = await runCli(['reply', parkedId, 'yes', '--data-dir', dataDir], admin);
      expect(replied.code, replied.stderr).toBe(0);
      expect(JSON.parse(replied.stdout)).toMatchObject({ outcome: { decision: 'continue' }, run: { id: parkedId } });
      expect(Object.keys(JSON.parse(replied.stdout) as object)).toEqual(expect.arrayContaining(['outcome', 'route', 'run']));
    } finally {
      await api.stop();
    }

    const neither = await runCli(['reviewers', 'list'], { DATABASE_URL: 'postgres://127.0.0.1:1/nowhere' });
    expect(neither.code).not.toBe(0);
    expect(neither.stderr).toContain('PostgreSQL is not reachable at postgres://127.0.0.1:1/nowhere');
    expect(neither.stderr).toContain('while `vetted api --embedded` holds the store, give --data-dir <dir> or --api <url>');
  }, 1_200_000);
});
