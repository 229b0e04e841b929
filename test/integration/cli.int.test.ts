/** The `vetted` command as a user runs it: real processes, exit codes, messages, a worker that drains on SIGTERM. */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitRun } from '../../src/intake/submit-run.ts';
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

async function vetted(args: string[], options: { env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], { env: { ...env, ...options.env }, timeout: options.timeout ?? 60_000 });
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

  it('dry-run stops where the worker would: an information review parks before anything is built', async () => {
    const file = tempJson('nothing-to-build', { prompt: '  ', conversation: [{ role: 'assistant', content: 'what shall I draw?' }] });
    const result = await vetted(['dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', file]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ candidate: null, issues: [], decision: 'awaiting_human', review: { reason: 'nothing_to_build_from', checkpoint: 'information_review' } });
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
    [['dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', 'REQ'], { prompt: 'a fox', edits: { num_output: 2 } }, /edits\.num_output: black-forest-labs\/flux-schnell has no input "num_output"; did you mean "num_outputs"\?/],
  ])('bad input exits 2 naming the file and the field (%#)', async (args, content, message) => {
    const file = tempJson(`bad-${String(message).length}`, content);
    const result = await vetted(args.map((a) => (a === 'REQ' || a === 'MODEL' ? file : a)));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(file);
  });

  it('--help documents the commands and the environment', async () => {
    const result = await vetted(['--help']);
    for (const word of ['dry-run', 'extract', 'enqueue', 'worker', 'demo', 'api', 'keys', 'reviewers', 'reply', 'interpret', 'DATABASE_URL', 'VETTED_QUEUE_PREFIX', 'VETTED_INTERPRETER_TIMEOUT_MS', 'Exit codes']) {
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

  it.each([[[]], [['--sim']]])('vetted demo --provider fal,openai,anthropic %j runs a fal, an OpenAI and an Anthropic model beside the Replicate ones, at their local servers', async (flags) => {
    const env = { FAL_KEY: 'fal-real-key-never-used', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: 'sk-ant-real-key-never-used', ANTHROPIC_BASE_URL: 'https://api.anthropic.com' };
    const result = await vetted(['demo', '--provider', 'fal', '--provider', 'openai,anthropic', ...flags], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/provider simulators: fal http:\/\/127\.0\.0\.1:\d+, OpenAI http:\/\/127\.0\.0\.1:\d+\/v1, Anthropic http:\/\/127\.0\.0\.1:\d+/);
    // The offline builder stays, although an OpenAI key is set for the openai provider; --sim asks for the LLM one.
    expect(result.stdout).toContain(flags.includes('--sim') ? 'builder openai, provider replicate' : 'builder heuristic');
    expect(result.stdout).toMatch(/fal-ai\/flux\/dev +\d+ fields, [1-9]\d* example values quarantined/);
    // The fal run executes as asked; only the speech run, whose required voice nobody gave, parks, and the edit ends it.
    const parked = [...result.stdout.matchAll(/\[(\d)\] awaiting_human: (\w+)/g)].map((match) => `${match[1]} ${match[2]}`);
    expect(parked).toEqual(['2 validation_failed', '3 policy_requires_human', '5 policy_requires_human', '7 validation_failed']);
    expect(result.stdout).toContain('/voice missing_required');
    expect(result.stdout).toContain('decision: edit (the reviewer picks a voice) → validate');
    expect(result.stdout).toMatch(/\[6\] completed .* fal-ai\/flux\/dev on fal /);
    if (flags.length === 0) {
      const falLine = /\[6\] completed .*\n +from the user: (.*)/.exec(result.stdout)?.[1] ?? '';
      for (const placed of ['prompt="a red fox curled up in fresh snow" (user_prompt)', 'seed=7 (user_prompt)', 'num_images=2 (user_prompt)']) expect(falLine).toContain(placed);
    }
    expect(result.stdout).toMatch(/\[7\] completed .* openai\/createSpeech on openai /);
    // The Messages run executes through @anthropic-ai/sdk at the local server: the app's conversation, never the published one.
    expect(result.stdout).toMatch(/\[8\] completed .* anthropic\/messages_post on anthropic /);
    const anthropicLine = /\[8\] completed .*\n +from the user: (.*)/.exec(result.stdout)?.[1] ?? '';
    for (const placed of ['model="claude-haiku-4-5" (human_edit)', 'max_tokens=200 (human_edit)', 'the tide going out']) expect(anthropicLine).toContain(placed);
    expect(anthropicLine).not.toContain('Hello, world');
    expect(result.stdout).toContain('7 completed, 1 cancelled');
    expect(result.stdout).toContain('the fal simulator ran 1 request(s), 0 of them twice.');
    expect(result.stdout).toContain('the OpenAI simulator ran 1 model call(s) (audio.speech), 0 of them twice.');
    expect(result.stdout).toContain('the Anthropic simulator ran 1 message call(s), 0 of them twice.');
    expect(result.stdout).not.toContain('should have ended');
  });

  it('vetted demo --provider refuses a provider it has no model for, naming the option (exit 2)', async () => {
    const result = await vetted(['demo', '--provider', 'fal,replicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--provider replicate: choose one of fal, openai, anthropic');
    expect((await vetted(['demo', '--help'])).stdout).toMatch(/--provider <names>[\s\S]*fal, openai,\s+anthropic/);
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

describe('usage errors exit 2 and point at --help', () => {
  it.each([
    [['dry-run', '--model', 'x'], /required option '--request <file>' not specified\n\(run `vetted dry-run --help` for usage\)/],
    [['bogus'], /unknown command 'bogus'\n\(run `vetted --help` for usage\)/],
    [['keys', 'create', '--tenant', 't'], /--role is required \(or --reviewer, whose role it takes\)/],
    [['runs', '--colour'], /unknown option '--colour'\n\(run `vetted runs --help` for usage\)/],
    [['runs', 'extra'], /too many arguments for 'runs'/],
  ])('vetted %j', async (args, message) => {
    const result = await vetted(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('--help, help and --version still exit 0', async () => {
    expect((await vetted(['--help'])).code).toBe(0);
    expect((await vetted(['help', 'runs'])).code).toBe(0);
    expect(await vetted(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });
});

describe('option values are checked before anything runs', () => {
  const statuses = 'queued, extracting, assembling, building, validating, awaiting_human, executing, paused, completed, failed, cancelled, expired';
  it.each([
    [['runs', '--status', 'bogus'], `--status bogus: choose one of ${statuses}`],
    [['runs', '--limit', 'abc'], '--limit abc: must be a whole number from 1 to 1000'],
    [['runs', '--limit', '-1'], '--limit -1: must be a whole number from 1 to 1000'],
    [['runs', '--limit', '0'], '--limit 0: must be a whole number from 1 to 1000'],
    [['decide', '00000000-0000-0000-0000-000000000000', '--action', 'bogus'], '--action bogus: choose one of approve, edit, reject, retry'],
    [['api', '--port', ''], '--port : must be a whole number from 0 to 65535'],
    [['api', '--port', '1e3'], '--port 1e3: must be a whole number from 0 to 65535'],
    [['reconcile', '--grace-ms', 'abc'], '--grace-ms abc: must be a whole number 0 or more'],
    [['worker', '--stages', ','], '--stages ",": name at least one of extract'],
    [['keys', 'create', '--tenant', 't', '--role', 'boss'], '--role boss: choose one of submitter, reviewer, admin'],
    [['models', 'add', 'examples/models/sdxl.model.json', '--ref', 'acme'], '--ref acme: must look like owner/name or owner/name:version'],
  ])('vetted %j exits 2 naming the option and what it accepts', async (args, message) => {
    const result = await vetted(args, { timeout: 20_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error [INVALID_REQUEST]: ${message}`);
  });

  it('good values still work', async () => {
    const result = await vetted(['runs', '--status', 'awaiting_human', '--limit', '5']);
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('one-shot commands', () => {
  it("enqueue prints the run id alone on stdout, logs going to stderr, and blames the model file for the model's faults", async () => {
    const request = tempJson('only-id', { model: 'black-forest-labs/flux-schnell', prompt: 'a quiet harbour' });
    await vetted(['models', 'add', 'examples/models/flux-schnell.model.json', '--tenant', 'default']);
    const enqueued = await vetted(['enqueue', '--request', request], { env: { LOG_LEVEL: 'info' } });
    expect(enqueued.code, enqueued.stderr).toBe(0);
    expect(enqueued.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(enqueued.stderr).toContain('RUN_CREATED');

    const model = tempJson('bad-model', { id: 'v1', openapi_schema: { components: { schemas: { Input: { type: 'object', properties: { a: { type: 'string', not: { enum: ['x'] } } } } } } } });
    const plain = tempJson('plain', { prompt: 'a fox' });
    const refused = await vetted(['enqueue', '--request', plain, '--model', model]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`model file ${model}: Unsupported schema construct "not"`);
    expect((await vetted(['enqueue', '--request', plain, '--tenant', ''])).stderr).toContain('tenant "" must be');
  });

  it('dry-run refuses a request naming another model, or a second model source, and honours its builder', async () => {
    const flux = 'examples/models/flux-schnell.model.json';
    const other = await vetted(['dry-run', '--model', flux, '--request', tempJson('other-model', { model: 'stability-ai/sdxl', prompt: 'a fox' })]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('model "stability-ai/sdxl" is not the model file');
    const twice = await vetted(['dry-run', '--model', flux, '--request', tempJson('two-sources', { modelSource: { model: 'a/b', example_input: { prompt: 'x' } }, prompt: 'a fox' })]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('modelSource is set, and --model gives the model too');
    const openai = await vetted(['dry-run', '--model', flux, '--request', tempJson('wants-openai', { builder: 'openai', prompt: 'a fox' })], { env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } });
    expect(openai.code).toBe(2);
    expect(openai.stderr).toContain('builder "openai" is not configured');
  });

  it('decide names a missing run and a malformed review id', async () => {
    const missing = await vetted(['decide', '00000000-0000-4000-8000-000000000000', '--action', 'approve']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error [RUN_NOT_FOUND]');
  });
});

/** `vetted` with text on stdin. */
function vettedWithInput(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [BIN, ...args], { env: { ...env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('chat replies from the command line', () => {
  it('vetted interpret --jsonl reads each line as a decision, in order, with no LLM configured', async () => {
    const lines = [
      { text: 'Yes please', expect: 'yes_no' },
      { text: 'yes, but square', expect: 'yes_no' },
      { text: '2', expect: 'single_choice', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] },
      { text: 'the blue one', expect: 'single_choice', source: 'disambiguation', options: [{ id: 'a', label: 'A' }] },
      { text: 'בשניהם', expect: 'multi_choice', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] },
    ];
    const result = await vettedWithInput(['interpret', '--jsonl'], lines.map((line) => JSON.stringify(line)).join('\n'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { layer: 'fast_path', decision: 'continue', parsed: { approved: true } },
      { layer: 'none', decision: 're_ask' },
      { layer: 'fast_path', decision: 'continue', parsed: { selected: ['b'] } },
      { layer: 'deterministic', decision: 'switch_intent' },
      { layer: 'none', decision: 're_ask' },
    ]);
    const bad = await vettedWithInput(['interpret', '--jsonl'], `${JSON.stringify(lines[0])}\n{"text": "x", "expect": "maybe"}`);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('line 2: expect must be one of yes_no, single_choice, multi_choice, free_text');
    expect(bad.stdout).toBe('');
  });

  it('vetted reply answers a parked run and prints how the reply was read', async () => {
    const { run } = await submitRun(system, { tenantId: 'cli-reply', actor: 'test', request: { modelSource: { model: 'acme/x', example_input: { prompt: 'a cat' } }, prompt: 'a dog', policy: 'require_human' } });
    const worker = spawn('node', [BIN, 'worker'], { env, stdio: 'ignore' });
    try {
      await settle(system, run.id, ['awaiting_human']);
      const result = await vetted(['reply', run.id, 'oui']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ outcome: { layer: 'fast_path', decision: 'continue', parsed: { approved: true } }, route: 'execute', run: { id: run.id, status: 'executing' } });
      await settle(system, run.id, ['completed']);
    } finally {
      worker.kill('SIGTERM');
    }
  });
});

describe('reviewers and their keys', () => {
  it('adds a person, gives them a key that acts as them, and refuses a key for another tenant', async () => {
    const added = await vetted(['reviewers', 'add', '--tenant', 'cli-people', '--name', 'Ada Lovelace', '--role', 'reviewer', '--team', 'imaging']);
    expect(added.code, added.stderr).toBe(0);
    const reviewerId = added.stdout.trim();
    expect(reviewerId).toMatch(/^rv_[a-z0-9]{12}$/);
    const key = await vetted(['keys', 'create', '--reviewer', reviewerId]);
    expect(key.code, key.stderr).toBe(0);
    expect(key.stderr).toContain('for tenant cli-people (reviewer, for Ada Lovelace)');
    expect(await system.apiKeys.verify(key.stdout.trim())).toMatchObject({ tenantId: 'cli-people', role: 'reviewer', reviewer: { id: reviewerId, name: 'Ada Lovelace', team: 'imaging' } });
    const listed = await vetted(['reviewers', 'list', '--tenant', 'cli-people']);
    expect(listed.stdout).toContain('Ada Lovelace');
    const foreign = await vetted(['keys', 'create', '--reviewer', reviewerId, '--tenant', 'elsewhere']);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(`Reviewer ${reviewerId} belongs to tenant cli-people, not elsewhere`);
  });
});

describe('models add --ref', () => {
  it('registers under the given ref and its version even when the file names its own model, and says so', async () => {
    const result = await vetted(['models', 'add', 'examples/models/sdxl.model.json', '--ref', 'acme/my-sdxl', '--tenant', 'cli-ref']);
    expect(result.code, result.stderr).toBe(0);
    const version = '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc';
    expect(result.stdout).toContain(`registered acme/my-sdxl and acme/my-sdxl:${version} (the file names stability-ai/sdxl; --ref wins)`);
    expect(await system.models.resolveRef('cli-ref', 'acme/my-sdxl')).toBeDefined();
    expect(await system.models.resolveRef('cli-ref', `acme/my-sdxl:${version}`)).toBeDefined();
    expect(await system.models.resolveRef('cli-ref', 'stability-ai/sdxl')).toBeUndefined();
    // Registered for that tenant only: `add`'s --tenant, not the `models` command's.
    expect(await system.models.resolveRef('someone-else', 'acme/my-sdxl')).toBeUndefined();
  });

  it('a ref naming another version than the file is refused', async () => {
    const result = await vetted(['models', 'add', 'examples/models/sdxl.model.json', '--ref', 'acme/my-sdxl:abc', '--tenant', 'cli-ref']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ref "acme\/my-sdxl:abc" names version abc, but the model file is version 7762fd07/);
  });
});

/** A TCP server that counts connection attempts and closes each at once: a service that is there but never answers. */
async function countingDeadEnd(): Promise<{ url: (scheme: string) => string; attempts: () => number; close: () => Promise<void> }> {
  let attempts = 0;
  const server = createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: (scheme) => `${scheme}://127.0.0.1:${port}`, attempts: () => attempts, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Each command must give up by itself: a process still retrying is killed by `vetted`'s timeout, and then has no
// exit code 1. The commands run one after another, so eight Node starts do not compete for two cores.
describe('an unreachable backing service', () => {
  const request = tempJson('unreachable', { model: 'black-forest-labs/flux-schnell', prompt: 'x' });
  it.each([
    [['runs']], [['run', '00000000-0000-0000-0000-000000000000']], [['worker']], [['api', '--port', '0']],
    [['enqueue', '--request', request]], [['models']], [['models', 'add', 'examples/models/flux-schnell.model.json']],
    // Not `demo`: it runs embedded instead (test/integration/embedded.int.test.ts).
  ])('Redis refusing: vetted %j exits 1 by itself with one line naming REDIS_URL', async (args) => {
    const result = await vetted(args, { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error \[SERVICE_UNAVAILABLE\]: Redis is not reachable at redis:\/\/127\.0\.0\.1:1.*ECONNREFUSED.*: start it .* or set REDIS_URL$/)]);
  });

  it('Redis that accepts and hangs up: one connection attempt, then exit 1 (no retry loop)', async () => {
    const deadEnd = await countingDeadEnd();
    try {
      const result = await vetted(['runs'], { env: { REDIS_URL: deadEnd.url('redis') } });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error \[SERVICE_UNAVAILABLE\]: Redis is not reachable/);
      expect(deadEnd.attempts()).toBe(1);
    } finally {
      await deadEnd.close();
    }
  });

  it('PostgreSQL refusing: exits 1 by itself naming DATABASE_URL', async () => {
    const result = await vetted(['runs'], { env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vetted' } });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error \[SERVICE_UNAVAILABLE\]: PostgreSQL is not reachable .* or set DATABASE_URL; or, while `vetted api --embedded` holds the store, give --data-dir <dir> or --api <url>/)]);
  });
});
