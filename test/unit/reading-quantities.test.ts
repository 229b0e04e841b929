/**
 * Numbers placed by the words around them, on real catalog schemas: a maximum (`no more than 300 tokens`,
 * `最大50トークン`), a number with its field's unit (`40 pasos`, `95 bpm`, `tres variaciones`), a decimal comma
 * (`Temperatur 0,4`), and sizes in words (`768 by 512`, `512 breit und 768 hoch`). Each value cites the user's
 * words and, where it is not the literal number, the conversion, and the validator accepts it; the same words
 * as content set nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CandidatePayload, FieldSpec } from '../../src/generated/contracts.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { provenanceIssues } from '../../src/stages/validator/provenance-issues.ts';
import { traceProvenance } from '../../src/adapters/openai/provenance-trace.ts';
import { bundleOf, CATALOG_LOAD_MS, CatalogModels, placed } from '../support/reading-builds.ts';

const models = new CatalogModels({
  chat: 'meta/meta-llama-3-8b-instruct',
  looper: 'andreasjansson/musicgen-looper',
  flux: 'black-forest-labs/flux-pro',
  sd: 'stability-ai/stable-diffusion',
  sdxl: 'stability-ai/sdxl',
  pdf: 'cuuupid/marker',
});
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

function fieldsOf(model: Model): Map<string, FieldSpec> {
  return new Map(models.fields(model).map((field) => [field.name, field]));
}

/** The validator's provenance issues on the candidate, against the request it was built from. */
function provenanceProblems(model: Model, prompt: string, candidate: CandidatePayload): string[] {
  return provenanceIssues(candidate, fieldsOf(model), collectBundleEvidence(bundleOf(prompt))).map((issue) => issue.message);
}

describe('a number with its field\'s unit, or a maximum around it', () => {
  it.each([
    ['chat', 'Explain photosynthesis. No more than 300 tokens.', { max_tokens: 300 }],
    ['chat', 'Erkläre das Wetter. Höchstens 150 Tokens, Temperatur 0,4.', { max_tokens: 150, temperature: 0.4 }],
    ['chat', 'Напиши сказку про ёжика. Не больше 300 токенов.', { max_tokens: 300 }],
    ['chat', '桜の俳句を作って。最大50トークン。', { max_tokens: 50 }],
    ['chat', 'اكتب قصيدة عن البحر، بحد أقصى 150 رمزاً', { max_tokens: 150 }],
    ['chat', 'כתוב שיר על ירושלים, עד 200 טוקנים', { max_tokens: 200 }],
    ['chat', 'Escreva uma receita. No máximo 250 tokens, temperatura 0,6.', { max_tokens: 250, temperature: 0.6 }],
    ['looper', 'un loop de reguetón a 95 bpm, tres variaciones', { bpm: 95, variations: 3 }],
    ['looper', 'a slow reggae groove at ninety beats per minute', { bpm: 90 }],
    ['flux', 'una calle de Sevilla con naranjos, 40 pasos', { steps: 40 }],
    ['flux', 'un phare breton sous la pluie, 30 étapes', { steps: 30 }],
    ['pdf', 'convertis ce document en markdown, 5 pages maximum', { max_pages: 5 }],
  ] as const)('%s: %s', (model, prompt, expected) => {
    const candidate = models.build(model, prompt);
    expect(placed(candidate)).toMatchObject(expected);
    expect(provenanceProblems(model, prompt, candidate)).toEqual([]);
  });

  it('records the conversion where the value is not the literal number, and the words it read', () => {
    const candidate = models.build('looper', 'un loop de reguetón a 95 bpm, tres variaciones');
    expect(candidate.provenance.variations).toMatchObject({ source: 'user_prompt', evidence: 'tres variaciones', conversion: 'unit_number' });
    const decimal = models.build('chat', 'Erkläre das Wetter. Temperatur 0,4.');
    expect(decimal.provenance.temperature).toMatchObject({ evidence: 'Temperatur 0,4', conversion: 'decimal_comma' });
  });

  it('the validator refuses a unit conversion that does not give the value, and the LLM builder traces a decimal comma', () => {
    const prompt = 'un loop, tres variaciones';
    const candidate: CandidatePayload = {
      payload: { variations: 4 },
      provenance: { variations: { source: 'user_prompt', evidence: 'tres variaciones', conversion: 'unit_number' } },
      confidence: 0.9,
      builder: 'test',
    };
    expect(provenanceProblems('looper', prompt, candidate)).toEqual([expect.stringMatching(/variations claims to come from the user's words/)]);
    const bundle = bundleOf('Erkläre das Wetter. Temperatur 0,4.');
    const temperature = fieldsOf('chat').get('temperature') as FieldSpec;
    expect(traceProvenance(0.4, temperature, collectBundleEvidence(bundle), bundle)).toMatchObject({ evidence: '0,4', conversion: 'decimal_comma' });
  });

  it.each([
    ['chat', 'write a story about a girl who collected 300 tokens at the arcade', 'max_tokens'],
    ['flux', 'a wooden temple with 100 steps up the hill, golden hour', 'steps'],
    ['pdf', 'summarise the 40 pages about tax law', 'max_pages'],
  ] as const)('content stays content: %s: %s', (model, prompt, field) => {
    expect(placed(models.build(model, prompt))).not.toHaveProperty(field);
  });
});

describe('sizes in words', () => {
  it.each([
    ['sd', 'a cottage in a lavender field, 768 by 512', { width: 768, height: 512 }],
    ['sd', 'un velero en una tormenta, 768 de ancho por 512 de alto', { width: 768, height: 512 }],
    ['sd', 'ein Segelboot auf dem Bodensee, 512 breit und 768 hoch', { width: 512, height: 768 }],
    ['sd', 'a tall lighthouse, 768 tall by 512 wide', { width: 512, height: 768 }],
    ['sd', 'матрёшки на полке, 512 на 768', { width: 512, height: 768 }],
    ['sd', 'סירת דייגים בכנרת, רוחב 768 וגובה 512', { width: 768, height: 512 }],
    ['sd', 'قارب شراعي في النيل، العرض 768 والارتفاع 512', { width: 768, height: 512 }],
    ['sd', '厳島神社の鳥居、幅768、高さ512', { width: 768, height: 512 }],
    ['sdxl', 'a red fox in fresh snow, width 1024 height 768', { width: 1024, height: 768 }],
  ] as const)('%s: %s', (model, prompt, expected) => {
    const candidate = models.build(model, prompt);
    expect(placed(candidate)).toMatchObject(expected);
    expect(provenanceProblems(model, prompt, candidate)).toEqual([]);
  });

  it.each(['a 2 by 4 plank leaning on a wall', 'a photo of the 1024 by 768 monitor on a desk', 'a castle wall 300 high'])('content stays content: %s', (prompt) => {
    const set = placed(models.build('sdxl', prompt));
    expect(set).not.toHaveProperty('width');
    expect(set).not.toHaveProperty('height');
  });
});
