/** The legacy V2 builder's merge, and the comparison that turns V2 beside V3 into a report (failures included). */
import { describe, expect, it } from 'vitest';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { VettedError } from '../../src/errors.ts';
import type { PayloadBuilder } from '../../src/ports.ts';
import { comparePayloads, fieldOfPath, shadowBuild } from '../../src/shadow/compare.ts';
import { createLegacyV2Builder, mergeLikeV2 } from '../../src/shadow/legacy-v2-builder.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { bundle, candidate, tinySchema } from '../support/fixtures.ts';

const example = { prompt: 'an example astronaut riding a unicorn', width: 768, image: 'https://example.test/demo.png', style: 'anime' };
const quarantine = ExampleQuarantine.fromExamples(example);

describe('mergeLikeV2', () => {
  it("keeps the example where the builder filled nothing, and the builder's request values on top", () => {
    const filled = candidate({ prompt: 'a cat' });
    const merged = mergeLikeV2(filled, example, []);
    expect(merged.payload).toEqual({ ...example, prompt: 'a cat' });
    expect(merged.fromExample).toEqual(['width', 'image', 'style']);
  });

  it("lets the example's values win over schema defaults, as V2 knew no defaults apart from the example", () => {
    const filled = candidate({ prompt: 'a cat', width: 1024 }, { provenance: { prompt: { source: 'user_prompt' }, width: { source: 'schema_default' } } });
    expect(mergeLikeV2(filled, example, []).payload.width).toBe(768);
    expect(mergeLikeV2(filled, {}, []).payload.width).toBe(1024);
  });

  it('puts an attachment the builder did not place into the field the example held a URL in', () => {
    const attachments = [{ url: 'https://user.test/blob', mimeType: 'application/octet-stream' }];
    const merged = mergeLikeV2(candidate({ prompt: 'a cat' }), example, attachments);
    expect(merged.payload.image).toBe('https://user.test/blob');
    expect(merged.attachmentFallbacks).toEqual([{ field: 'image', url: 'https://user.test/blob' }]);
    expect(merged.fromExample).not.toContain('image');
  });

  it('fills a list URL field with every attachment left, and leaves placed attachments alone', () => {
    const listExample = { images: ['https://example.test/a.png', 'https://example.test/b.png'] };
    const attachments = [{ url: 'https://user.test/1', mimeType: 'x/y' }, { url: 'https://user.test/2', mimeType: 'x/y' }, { url: 'https://user.test/3', mimeType: 'image/png' }];
    const merged = mergeLikeV2(candidate({ mask: 'https://user.test/3' }), listExample, attachments);
    expect(merged.payload.images).toEqual(['https://user.test/1', 'https://user.test/2']);
  });

  it('never mutates the frozen example it was given', () => {
    const nested = ExampleQuarantine.fromExamples({ tags: ['a', 'b'] }).exampleInput();
    const merged = mergeLikeV2(candidate({}), nested, []);
    (merged.payload.tags as string[]).push('c');
    expect(nested.tags).toEqual(['a', 'b']);
  });
});

describe('shadowBuild and comparePayloads', () => {
  const legacy = createLegacyV2Builder(createHeuristicBuilder());

  it('wraps the same builder V3 uses, so the only difference is the example', async () => {
    const b = bundle({ prompt: 'a cat' });
    const v3 = await legacy.inner.build({ bundle: b, schema: tinySchema });
    const report = await shadowBuild({ bundle: b, schema: tinySchema, quarantine, v3, legacy });
    expect(legacy.name).toBe('v2:heuristic');
    expect(report.status).toBe('ok');
    expect(report.v3Payload).toEqual({ prompt: 'a cat', width: 1024, style: 'photo' });
    expect(report.v2Payload).toEqual({ prompt: 'a cat', width: 768, image: 'https://example.test/demo.png', style: 'anime' });
    // `anime` is short (under 6 characters), so it only matches at its own path, which is where V2 put it.
    expect(report.leaks.map((l) => [l.path, l.match])).toEqual([['/image', 'exact'], ['/style', 'exact'], ['/width', 'number']]);
    expect(report.leakedFields).toEqual(['image', 'style', 'width']);
    expect(report.v3Leaks).toEqual([]);
    expect(report.fieldsDiffering).toBe(3);
  });

  it("reuses a deterministic builder's V3 candidate instead of building again, with the same report", async () => {
    const heuristic = createHeuristicBuilder();
    let calls = 0;
    const counted: PayloadBuilder = { ...heuristic, build: (input, options) => ((calls += 1), heuristic.build(input, options)) };
    const b = bundle({ prompt: 'a cat' });
    const v3 = await heuristic.build({ bundle: b, schema: tinySchema });
    const rebuilt = await shadowBuild({ bundle: b, schema: tinySchema, quarantine, v3, legacy: createLegacyV2Builder(counted) });
    expect(calls).toBe(1);
    const reused = await shadowBuild({ bundle: b, schema: tinySchema, quarantine, v3, v3IsBuilderOutput: true, legacy: createLegacyV2Builder(counted) });
    expect(calls).toBe(1);
    expect(reused).toEqual(rebuilt);
  });

  it('builds again for a builder that is not deterministic, even when the V3 candidate is its output', async () => {
    let calls = 0;
    const sampling: PayloadBuilder = { name: 'llm', build: async () => ((calls += 1), candidate({ prompt: `take ${calls}` })) };
    const v3 = candidate({ prompt: 'take 0' });
    const report = await shadowBuild({ bundle: bundle(), schema: tinySchema, quarantine, v3, v3IsBuilderOutput: true, legacy: createLegacyV2Builder(sampling) });
    expect(calls).toBe(1);
    expect(report.v2Payload?.prompt).toBe('take 1');
  });

  it('records a V2 builder that throws as a failed comparison with the reason, and does not throw', async () => {
    const throwing: PayloadBuilder = {
      name: 'exploding',
      build: () => Promise.reject(new VettedError('BUILDER_FAILED', 'the model server hung up')),
    };
    const v3 = candidate({ prompt: 'a cat' });
    const report = await shadowBuild({ bundle: bundle(), schema: tinySchema, quarantine, v3, legacy: createLegacyV2Builder(throwing) });
    expect(report).toMatchObject({ status: 'failed', v2Payload: null, v3Payload: { prompt: 'a cat' }, leaks: [], v3Leaks: [] });
    expect(report.failureReason).toBe('V2 builder (v2:exploding) failed: [BUILDER_FAILED] the model server hung up');
  });

  it('records a diff that cannot be computed as a failed comparison', async () => {
    const odd: PayloadBuilder = { name: 'odd', build: async () => ({ ...candidate({}), payload: 'not an object' as unknown as Record<string, unknown> }) };
    const report = await shadowBuild({ bundle: bundle(), schema: tinySchema, quarantine: ExampleQuarantine.empty(), v3: { ...candidate({}), payload: [] as unknown as Record<string, unknown> }, legacy: createLegacyV2Builder(odd) });
    expect(report.status).toBe('failed');
    expect(report.failureReason).toMatch(/^the payloads could not be compared: /);
  });

  it('finds example text copied inside a longer V2 value (substring)', () => {
    const report = comparePayloads({
      v2Payload: { prompt: 'a cat, an example astronaut riding a unicorn' },
      v3Payload: { prompt: 'a cat' },
      bundle: bundle({ prompt: 'a cat' }),
      schema: tinySchema,
      quarantine,
    });
    expect(report.leaks).toEqual([{ path: '/prompt', value: 'a cat, an example astronaut riding a unicorn', examplePath: '/prompt', exampleValue: example.prompt, match: 'substring' }]);
    expect(report.diff).toEqual([{ type: 'CHANGE', path: ['prompt'], value: 'a cat', oldValue: 'a cat, an example astronaut riding a unicorn' }]);
  });

  it('names the top-level field of a nested leak path', () => {
    expect(fieldOfPath('/images/0')).toBe('images');
    expect(fieldOfPath('/a~1b/c')).toBe('a/b');
  });
});
