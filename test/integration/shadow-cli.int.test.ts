/** `vetted shadow` as a user runs it: real processes, exit codes, and the report files it writes. */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { settle, submit } from '../support/pipeline.ts';
import { CANARY, CANARY_MODEL_REF, PROMPT_ONLY, shadowCanaryModel } from '../support/shadow-canary.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/vetted.mjs');
let system: TestSystem;
let workers: RunningWorkers;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  system = await createTestSystem();
  workers = startWorkers(system);
  env = { ...process.env, DATABASE_URL: system.config.databaseUrl, VETTED_QUEUE_PREFIX: system.config.queuePrefix, LOG_LEVEL: 'warn' };
  await registerModel(system, { tenantId: '*', source: shadowCanaryModel() });
  const shadowed = await submit(system, { model: CANARY_MODEL_REF, ...PROMPT_ONLY, shadow: true });
  await settle(system, shadowed.id, ['completed']);
  await eventually(async () => (await system.shadowReports.listForRun(shadowed.id))[0], 15_000, 'the shadow report');
});

afterAll(async () => {
  await workers?.close();
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

describe('vetted shadow report', () => {
  it('prints JSON and CSV, and writes a self-contained HTML page', async () => {
    const html = path.join(tmpdir(), `vetted-shadow-${process.pid}.html`);
    const asJson = await vetted(['shadow', 'report', '--tenant', 't1', '--since', '1h', '--format', 'json', '--html', html]);
    expect(asJson.code, asJson.stderr).toBe(0);
    const summary = JSON.parse(asJson.stdout) as { models: { model: string; withLeaks: number; v3Leaks: number }[] };
    expect(summary.models).toEqual([expect.objectContaining({ model: CANARY_MODEL_REF, withLeaks: 1, v3Leaks: 0 })]);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<svg role="img"');
    expect(page).toContain('style_preset');
    expect(page).toContain(CANARY.style);

    const csv = await vetted(['shadow', 'report', '--model', CANARY_MODEL_REF, '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')).toContain(`${CANARY_MODEL_REF},image,1,,1,1,,,,exact,${CANARY.image}`);
  });

  it('prints a table by default, and refuses a bad --format or --since with exit 2', async () => {
    const table = await vetted(['shadow', 'report']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Worst fields (V2)');
    const format = await vetted(['shadow', 'report', '--format', 'xml']);
    expect(format).toMatchObject({ code: 2 });
    expect(format.stderr).toContain('--format xml: choose one of table, json, csv');
    expect((await vetted(['shadow', 'report', '--since', 'soon'])).code).toBe(2);
  });
});

describe('vetted shadow enable and settings', () => {
  it('sets a rate per tenant or model, lists it, and refuses a rate outside 0..1', async () => {
    const enabled = await vetted(['shadow', 'enable', '--tenant', 'acme', '--model', 'acme/img', '--rate', '0.25']);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toContain('shadow rate for tenant acme, model acme/img is now 0.25');
    expect(await system.shadowSettings.list('acme')).toEqual([expect.objectContaining({ model: 'acme/img', sampleRate: 0.25 })]);
    expect((await vetted(['shadow', 'enable', '--tenant', 'acme', '--rate', '1'])).code).toBe(0);
    const listed = await vetted(['shadow', 'settings', '--tenant', 'acme']);
    expect(listed.stdout).toMatch(/acme\s+\(every model\)\s+1/);
    const bad = await vetted(['shadow', 'enable', '--tenant', 'acme', '--rate', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rate 1.5');
  });
});

describe('vetted shadow replay', () => {
  it('prints the documented JSON summary for the shipped corpus', async () => {
    const result = await vetted(['shadow', 'replay', '--models', 'examples/models', '--requests', 'examples/shadow/requests.jsonl', '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { models: Record<string, unknown>[]; totals: Record<string, number> };
    expect(Object.keys(summary)).toEqual(['models', 'totals']);
    expect(Object.keys(summary.models[0] ?? {})).toEqual(['model', 'requests', 'v2Leaks', 'v3Leaks', 'fieldsDiffering']);
    expect(summary.totals.v3Leaks).toBe(0);
    expect(summary.totals.v2Leaks).toBeGreaterThan(0);
  });

  it('names the line and the field of a bad request line (exit 2)', async () => {
    const file = path.join(tmpdir(), `vetted-shadow-${process.pid}.jsonl`);
    writeFileSync(file, '{"prompt":"fine"}\n{"prompt":"x","attachments":[{"url":"file:///etc/passwd","mimeType":"image/png"}]}\n');
    const result = await vetted(['shadow', 'replay', '--models', 'examples/models', '--requests', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`requests file ${file} line 2: attachments[0].url must be an http(s) URL`);
  });
});
