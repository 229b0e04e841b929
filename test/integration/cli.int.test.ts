/** The `vetted` command as a user runs it: real processes, exit codes, messages, a worker that drains on SIGTERM. */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/vetted.mjs');
let system: TestSystem;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  system = await createTestSystem();
  env = { ...process.env, DATABASE_URL: system.config.databaseUrl, VETTED_QUEUE_PREFIX: system.config.queuePrefix, LOG_LEVEL: 'warn' };
});

afterAll(async () => {
  await system?.dispose();
});

async function vetted(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function tempJson(name: string, value: unknown): string {
  const file = path.join(tmpdir(), `vetted-cli-${process.pid}-${name}.json`);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('offline commands', () => {
  it('dry-run prints the documented JSON object and decides', async () => {
    const result = await vetted(['dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', 'examples/requests/flux.json']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(['modelSchema', 'bundle', 'candidate', 'issues', 'decision']);
    expect(printed.decision).toBe('execute');
    expect((printed.candidate as { payload: Record<string, unknown> }).payload).toMatchObject({ seed: 1234, num_outputs: 2, aspect_ratio: '16:9' });
    expect(result.stdout).not.toContain('gateau');
  });

  it('extract prints a ModelSchema with no example value in it', async () => {
    const result = await vetted(['extract', '--model', 'examples/models/real-esrgan.model.json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ model: 'nightmareai/real-esrgan', source: 'replicate_model' });
    expect(result.stdout).not.toContain('replicate.delivery');
  });

  it.each([
    [['dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', 'REQ'], { prompt: 5 }, /request file .*: request: prompt must be string/],
    [['dry-run', '--model', 'MODEL', '--request', 'examples/requests/flux.json'], { owner: 'a', name: 'b' }, /model file .*: The model has neither/],
    [['extract', '--model', 'MODEL'], '{ not json', /model file .*: not valid JSON/],
    [['dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', 'REQ'], { attachments: [{ url: 'https://x.test/a', mimeType: 'image/png', sizeBytes: 10 ** 12 }] }, /attachments\[0\]\.sizeBytes/],
  ])('bad input exits 2 naming the file and the field (%#)', async (args, content, message) => {
    const file = tempJson(`bad-${String(message).length}`, content);
    const result = await vetted(args.map((a) => (a === 'REQ' || a === 'MODEL' ? file : a)));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(file);
  });

  it('--help documents the commands and the environment', async () => {
    const result = await vetted(['--help']);
    for (const word of ['dry-run', 'extract', 'enqueue', 'worker', 'demo', 'api', 'keys', 'DATABASE_URL', 'VETTED_QUEUE_PREFIX', 'Exit codes']) {
      expect(result.stdout).toContain(word);
    }
  });
});

describe('the demo (the quick start command)', () => {
  it.each([[[]], [['--sim']]])('vetted demo %j runs end to end: runs execute, park, are resolved', async (flags) => {
    const result = await vetted(['demo', ...flags]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('4 completed, 1 cancelled');
    expect(result.stdout).toContain('decision: edit');
    if (flags.includes('--sim')) expect(result.stdout).toMatch(/saw 4 predictions, 0 of them twice/);
  });
});

describe('commands on the queues and the database', () => {
  it('models add, enqueue, a worker that completes the run and drains on SIGTERM, then run <id>', async () => {
    expect((await vetted(['models', 'add', 'examples/models/flux-schnell.model.json', '--tenant', 'default'])).stdout).toContain('black-forest-labs/flux-schnell');
    expect((await vetted(['models'])).stdout).not.toContain('empty');
    const request = tempJson('req', { model: 'black-forest-labs/flux-schnell', prompt: 'a bridge in the rain' });
    const enqueued = await vetted(['enqueue', '--request', request]);
    expect(enqueued.code).toBe(0);
    const runId = enqueued.stdout.trim();
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);

    const worker = spawn('node', [BIN, 'worker'], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
    try {
      expect((await settle(system, runId, ['completed'], 30_000)).status).toBe('completed');
    } finally {
      worker.kill('SIGTERM');
    }
    expect(await exited).toBe(0);

    const shown = await vetted(['run', runId, '--events']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ run: { id: runId, status: 'completed' } });
    expect((await vetted(['run', 'not-a-uuid'])).code).toBe(2);
  });
});
