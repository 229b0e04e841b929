/** Which runs are shadowed: deterministic per run id, and the precedence request → model → tenant → default. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decideShadow, isSampled, sampleFraction, sampleRateFor, type ShadowSetting } from '../../src/shadow/sampling.ts';

const ids = Array.from({ length: 4000 }, () => randomUUID());

describe('sampling', () => {
  it('is a stable fraction of the run id, so a retried build decides the same way', () => {
    const id = '0b7c8d3e-1111-4111-8111-222222222222';
    expect(sampleFraction(id)).toBe(sampleFraction(id));
    expect(sampleFraction(id)).toBeGreaterThanOrEqual(0);
    expect(sampleFraction(id)).toBeLessThan(1);
  });

  it('takes about the configured share, never at 0 and always at 1', () => {
    const share = ids.filter((id) => isSampled(id, 0.25)).length / ids.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.3);
    expect(ids.some((id) => isSampled(id, 0))).toBe(false);
    expect(ids.every((id) => isSampled(id, 1))).toBe(true);
  });

  it('samples a subset of the larger rate at a smaller rate (raising the rate only adds runs)', () => {
    for (const id of ids.filter((i) => isSampled(i, 0.1))) expect(isSampled(id, 0.5)).toBe(true);
  });
});

describe('precedence', () => {
  const settings: ShadowSetting[] = [
    { model: null, sampleRate: 0.5 },
    { model: 'acme/flux', sampleRate: 1 },
    { model: 'acme/flux:v2', sampleRate: 0 },
  ];

  it('prefers the versioned model, then the model, then the tenant, then the default', () => {
    expect(sampleRateFor(settings, 'acme/flux:v2', 0.1)).toEqual({ rate: 0, source: 'model' });
    expect(sampleRateFor(settings, 'acme/flux:v1', 0.1)).toEqual({ rate: 1, source: 'model' });
    expect(sampleRateFor(settings, 'acme/other', 0.1)).toEqual({ rate: 0.5, source: 'tenant' });
    expect(sampleRateFor(settings, null, 0.1)).toEqual({ rate: 0.5, source: 'tenant' });
    expect(sampleRateFor([], 'acme/other', 0.1)).toEqual({ rate: 0.1, source: 'default' });
  });

  it("lets the request's shadow flag decide over every setting", () => {
    const base = { runId: ids[0] ?? '', model: 'acme/flux', settings, defaultRate: 0 };
    expect(decideShadow({ ...base, requested: true, model: 'acme/flux:v2' })).toMatchObject({ shadow: true, reason: 'requested' });
    expect(decideShadow({ ...base, requested: false })).toMatchObject({ shadow: false, reason: 'opted_out' });
    expect(decideShadow({ ...base, requested: undefined })).toMatchObject({ shadow: true, reason: 'sampled', source: 'model' });
    expect(decideShadow({ ...base, requested: undefined, settings: [] })).toMatchObject({ shadow: false, reason: 'not_sampled', source: 'default' });
  });
});
