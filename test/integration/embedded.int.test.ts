/**
 * Embedded mode as someone with only Node meets it: `vetted demo` with PostgreSQL and Redis pointing nowhere
 * runs the whole story on PGlite in one process, and `vetted api --embedded` serves a submit → park → decide
 * → completed round trip over HTTP, ready without Redis, with its data kept across a restart. Real processes,
 * real HTTP; nothing here touches the shared PostgreSQL or Redis.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/cli/demo/api-client.ts';
import { finished as finish, VETTED_BIN as BIN } from '../support/cli-process.ts';
import { eventually } from '../support/test-system.ts';

const NOWHERE = { DATABASE_URL: 'postgres://127.0.0.1:1/nowhere', REDIS_URL: 'redis://127.0.0.1:1' };
const home = mkdtempSync(path.join(tmpdir(), 'vetted-embedded-'));
// HOME too: nothing may land in the real ~/.vetted.
const env = { ...process.env, ...NOWHERE, HOME: home, LOG_LEVEL: 'info', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('vetted demo with nothing but Node', () => {
  it('falls back to embedded, says what it tried, and runs the whole story: parked runs resolved, all ended', async () => {
    const result = await finish(spawn('node', [BIN, 'demo'], { env: { ...env, LOG_LEVEL: 'warn' } }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('PostgreSQL is not reachable at postgres://127.0.0.1:1/nowhere (connect ECONNREFUSED');
    expect(result.stdout).toContain('Redis is not reachable at redis://127.0.0.1:1 (connect ECONNREFUSED');
    expect(result.stdout).toContain('EMBEDDED MODE: single process, not for production.');
    expect(result.stdout).toContain('in memory');
    // Parked, then worked by the reviewer, then ended as the script says.
    expect(result.stdout).toMatch(/\[2\] awaiting_human: validation_failed/);
    expect(result.stdout).toMatch(/\[3\] awaiting_human: policy_requires_human/);
    expect(result.stdout).toContain('decision: edit (the reviewer supplies the missing image URL) → validate');
    expect(result.stdout).toContain('decision: approve (the reviewer approves the payload as built) → execute');
    expect(result.stdout).toMatch(/\[2\] completed/);
    expect(result.stdout).toMatch(/\[5\] cancelled: not on brand/);
    expect(result.stdout).toContain('4 completed, 1 cancelled');
    expect(result.stderr).not.toMatch(/error/i);
  }, 180_000);
});

/** `vetted api --embedded` as a child; resolves once it listens, with its URL and the first-start lines. */
async function startApi(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = spawn('node', [BIN, 'api', '--embedded', '--port', '0', ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await eventually(async () => /API listening on (http:\/\/\S+) /.exec(stdout)?.[1], 120_000, `the API to listen (stderr: ${stderr})`);
  return {
    child,
    url,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return closed;
    },
  };
}

async function waitForStatus(client: ApiClient, runId: string, status: string): Promise<void> {
  await eventually(async () => ((await client.run(runId)).status === status ? true : undefined), 60_000, `run ${runId} to be ${status}`);
}

describe('vetted api --embedded', () => {
  const dataDir = path.join(home, 'store');

  it('is ready without Redis, and carries a run through park → decide → completed over HTTP; the data outlives a restart', async () => {
    const first = await startApi(['--data-dir', dataDir, '--model', 'examples/models/flux-schnell.model.json']);
    let runId: string;
    let key: string;
    try {
      expect(first.stderr()).toContain('EMBEDDED MODE: single process, not for production.');
      expect(first.stderr()).toContain(`store: PGlite (PostgreSQL in WebAssembly) in ${dataDir}`);
      expect(first.stderr()).toContain('model black-forest-labs/flux-schnell registered for tenant default');
      key = /created an admin key for tenant default \(shown once, keep it\): (\S+)/.exec(first.stderr())?.[1] ?? '';
      expect(key).not.toBe('');

      const ready = await fetch(`${first.url}/api/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', missing: [], checks: { postgres: 'ok' } });

      const client = createApiClient(first.url, key);
      runId = (await client.submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dawn, seed=7', policy: 'require_human' })).id;
      await waitForStatus(client, runId, 'awaiting_human');
      const [pending] = (await client.pendingReviews()).items;
      expect(pending?.runId).toBe(runId);
      const { review } = await client.review(pending?.reviewId ?? '');
      const decision = await client.decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
      expect(decision.route).toBe('execute');
      await waitForStatus(client, runId, 'completed');
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // Same directory, new process: the run and the key are still there, and no second admin key is made.
    const second = await startApi(['--data-dir', dataDir]);
    try {
      expect(second.stderr()).not.toContain('created an admin key');
      const run = await createApiClient(second.url, key).run(runId);
      expect(run.status).toBe('completed');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 300_000);

  it('refuses a second process on the same data directory, naming the holder', async () => {
    const holder = await startApi(['--data-dir', path.join(home, 'held')]);
    try {
      const result = await finish(spawn('node', [BIN, 'api', '--embedded', '--port', '0', '--data-dir', path.join(home, 'held')], { env }));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`in use by process ${holder.child.pid}; stop it or choose another --data-dir`));
    } finally {
      await holder.stop();
    }
  }, 300_000);

  it.each([
    [['api', '--data-dir', '/tmp/x'], /--data-dir applies to the embedded store only; add --embedded/],
    [['api', '--in-memory'], /--in-memory applies to the embedded store only/],
    [['api', '--embedded', '--in-memory', '--data-dir', '/tmp/x'], /--in-memory and --data-dir contradict each other/],
  ])('bad options exit 2 naming the option: %j', async (args, message) => {
    const result = await finish(spawn('node', [BIN, ...args], { env }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
