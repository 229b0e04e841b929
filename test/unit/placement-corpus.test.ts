/**
 * The labelled placement corpus is well-formed: every line names a public catalog model, asks only for fields
 * its extracted schema has, with values those fields can hold, and points file matchers at the request's own
 * attachments. The corpus is as broad as it claims (models, languages, kinds), and the checker itself refuses
 * each kind of mistake.
 */
import { describe, expect, it } from 'vitest';
import { checkLine } from '../../bench/placement/check.ts';
import { KINDS, LANGS, loadCorpus, type CorpusLine } from '../../bench/placement/corpus.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { catalogByName } from '../../bench/placement/catalog.ts';

const corpus = loadCorpus();
const schemas = new Map<string, ModelSchema | undefined>();
function schemaOf(model: string): ModelSchema | undefined {
  if (!schemas.has(model)) {
    const source = catalogByName().get(model);
    schemas.set(model, source === undefined ? undefined : extractModelSchema(source).modelSchema);
  }
  return schemas.get(model);
}

describe('the placement corpus', () => {
  it('has only lines that could be scored right', () => {
    const problems = corpus.flatMap((line) => checkLine(line, schemaOf(line.model)).map((problem) => `${line.source} ${line.id}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('has requests the intake accepts', () => {
    const refused = corpus.flatMap((line) => {
      try {
        assertContract('generation-request', line.request, 'request');
        return [];
      } catch (error) {
        return [`${line.source} ${line.id}: ${error instanceof Error ? error.message : String(error)}`];
      }
    });
    expect(refused).toEqual([]);
  });

  it('has unique ids', () => {
    const seen = new Set<string>();
    const repeated = corpus.filter((line) => (seen.has(line.id) ? true : (seen.add(line.id), false))).map((line) => `${line.source} ${line.id}`);
    expect(repeated).toEqual([]);
  });

  it('is broad: at least 600 requests over 100 catalog models, every kind, 40 requests in each language', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(600);
    expect(new Set(corpus.map((line) => line.model)).size).toBeGreaterThanOrEqual(100);
    expect(new Set(corpus.map((line) => line.kind))).toEqual(new Set(KINDS));
    for (const lang of LANGS) expect(corpus.filter((line) => line.lang === lang).length, lang).toBeGreaterThanOrEqual(40);
  });
});

describe('the corpus-line checker', () => {
  const flux = (expect: CorpusLine['expect'], request: CorpusLine['request'] = { prompt: 'a fox' }): CorpusLine => ({
    id: 't',
    kind: 'explicit',
    lang: 'en',
    model: 'black-forest-labs/flux-schnell',
    request,
    expect,
    source: 'test',
  });
  const schema = () => schemaOf('black-forest-labs/flux-schnell');

  it('accepts a line whose values the fields can hold', () => {
    expect(checkLine(flux({ prompt: { contains: ['fox'] }, aspect_ratio: '16:9', num_outputs: { oneOf: [2, 3] }, seed: { absent: true } }), schema())).toEqual([]);
  });

  it('refuses a field the model does not have, an enum value it does not allow, a number out of range, a wrong type', () => {
    expect(checkLine(flux({ width: 512 }), schema())).toEqual(['expect.width: black-forest-labs/flux-schnell has no such field']);
    expect(checkLine(flux({ aspect_ratio: '16/9' }), schema())).toEqual(['expect.aspect_ratio: "16/9" is not one of the field\'s values']);
    expect(checkLine(flux({ num_outputs: 9 }), schema())).toEqual(['expect.num_outputs: 9 is outside 1..4']);
    expect(checkLine(flux({ seed: '42' }), schema())).toEqual(['expect.seed: "42" is not of type integer']);
  });

  it('refuses a file matcher pointing at no attachment, and a model outside the catalog', () => {
    expect(checkLine(flux({ prompt: { file: 'https://x.test/a.png' } }), schema())).toEqual(['expect.prompt: file https://x.test/a.png is not among the request\'s attachments']);
    expect(checkLine({ ...flux({ prompt: 'x' }), model: 'nobody/nothing' }, undefined)).toEqual(['model nobody/nothing is not in the public catalog']);
  });
});
