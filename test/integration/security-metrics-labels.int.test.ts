// Promise: /metrics labels are bounded: a model sent inline (outside the tenant's catalog) is counted under one
// `inline` label whatever it calls itself, so callers choosing new model names add no series; catalog models keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { exampleModel, settle } from '../support/pipeline.ts';
import { parseSamples, type Sample } from '../support/prometheus-text.ts';

const FLUX = 'black-forest-labs/flux-schnell';
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
});

afterAll(async () => {
  await api?.close();
});

/** The flux-schnell model file under another owner and name: a model no catalog holds. */
function inlineModel(owner: string, name: string): Record<string, unknown> {
  return { ...exampleModel('flux-schnell.model.json'), url: `https://replicate.com/${owner}/${name}`, owner, name };
}

async function ranToEnd(body: Record<string, unknown>): Promise<void> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { prompt: 'a lighthouse at dusk', ...body } });
  expect(response.statusCode, response.body).toBe(202);
  const run = await settle(api.system, json<{ id: string }>(response).id);
  expect(run.status).toBe('completed');
}

/** Every series that carries a model label, as `name{labels}`. */
async function modelSeries(): Promise<Set<string>> {
  const response = await api.call('GET', '/metrics', { key: null });
  expect(response.statusCode).toBe(200);
  const key = (sample: Sample) => `${sample.name}${JSON.stringify(sample.labels)}`;
  return new Set(parseSamples(response.body).filter((sample) => 'model' in sample.labels).map(key));
}

describe('metrics model labels', () => {
  it('two runs with inline models card1/m1 and card2/m2 add no per-model series', async () => {
    await ranToEnd({ model: FLUX });
    await ranToEnd({ modelSource: inlineModel('card0', 'm0') });
    const before = await modelSeries();
    expect([...before].some((series) => series.includes(`"model":"${FLUX}"`))).toBe(true);
    expect([...before].some((series) => series.includes('"model":"inline"'))).toBe(true);

    await ranToEnd({ modelSource: inlineModel('card1', 'm1') });
    await ranToEnd({ modelSource: inlineModel('card2', 'm2') });
    const after = await modelSeries();
    expect([...after].filter((series) => !before.has(series))).toEqual([]);
    expect([...after].join('\n')).not.toMatch(/card\d/);
  });

  it('an inline model that calls itself by a catalog name still counts as inline in the counters', async () => {
    const impostor = { ...exampleModel('flux-schnell.model.json'), description: 'same name, another source' };
    const before = parseSamples((await api.call('GET', '/metrics', { key: null })).body);
    const completed = (samples: Sample[], model: string) =>
      samples.find((s) => s.name === 'vetted_run_outcomes_total' && s.labels.tenant === 't1' && s.labels.model === model && s.labels.outcome === 'completed')?.value ?? 0;
    await ranToEnd({ modelSource: impostor });
    const after = parseSamples((await api.call('GET', '/metrics', { key: null })).body);
    expect(completed(after, 'inline') - completed(before, 'inline')).toBe(1);
    expect(completed(after, FLUX)).toBe(completed(before, FLUX));
  });
});
