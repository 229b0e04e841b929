/**
 * A free-string input named with its value after a space, no `:` or `=` (`language en`, `token string MYSTYLE`,
 * `bars color #ff8800`), on real catalog schemas: placed when the name opens its clause and the value is quoted
 * or one token ending the clause, in every reading language whose word lists name the input; the picture's
 * words otherwise (`a child with language skills`, `the language of flowers`, a quoted sign).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { loadCatalogModels } from '../support/replicate-catalog.ts';

const MODELS = {
  diarization: 'thomasmol/whisper-diarization',
  lora: 'zylim0702/sdxl-lora-customize-training',
  waveform: 'fofr/audio-to-waveform',
} as const;
type Model = keyof typeof MODELS;
const schemas = new Map<Model, ModelSchema>();
const quarantines = new Map<Model, ExampleQuarantine>();

beforeAll(() => loadCatalogModels(MODELS, schemas, quarantines), 180_000);

function bundleOf(prompt: string): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
}

function build(model: Model, prompt: string): CandidatePayload {
  return buildHeuristicPayload({ bundle: bundleOf(prompt), schema: schemas.get(model) as ModelSchema });
}

/** The fields set from the request (not the schema's defaults). */
function placed(candidate: CandidatePayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(candidate.payload).filter(([field]) => candidate.provenance[field]?.source !== 'schema_default'));
}

describe('a free-string input named with its value after a space', () => {
  it.each([
    ['diarization', '3 speakers, output format both, language en', { language: 'en', num_speakers: 3 }],
    ['diarization', 'language de.', { language: 'de' }],
    ['diarization', '3 hablantes, idioma es', { language: 'es' }],
    ['diarization', 'trois locuteurs, langue fr.', { language: 'fr' }],
    ['diarization', 'drei Sprecher, Sprache de', { language: 'de' }],
    ['diarization', '3 говорящих, язык ru', { language: 'ru' }],
    ['diarization', 'שלושה דוברים, שפה he', { language: 'he' }],
    ['lora', 'train with lora rank 16, token string MYSTYLE', { token_string: 'MYSTYLE', lora_rank: 16 }],
    ['waveform', 'a waveform video, bars color #ff8800', { bars_color: '#ff8800' }],
    ['waveform', "bars color '#ff8800', caption text 'Episode 12: Deep Sea'", { bars_color: '#ff8800', caption_text: 'Episode 12: Deep Sea' }],
  ] as [Model, string, Record<string, unknown>][])('%s: %s', (model, text, expected) => {
    const candidate = build(model, text);
    expect(placed(candidate)).toMatchObject(expected);
    // The value is the user's own token, so the validator traces it to the request and raises nothing about it.
    const schema = schemas.get(model) as ModelSchema;
    const issues = validatePayload({ candidate, schema, bundle: bundleOf(text), quarantine: quarantines.get(model) as ExampleQuarantine });
    expect(issues.filter((issue) => Object.keys(expected).some((field) => issue.path === `/${field}`))).toEqual([]);
    // What was read as a setting leaves the text sent as the model's prompt.
    for (const value of Object.values(expected)) {
      if (typeof value === 'string') expect(String(candidate.payload.prompt ?? '')).not.toContain(value);
    }
  });
});

describe('the same words as the picture stay content', () => {
  it.each([
    ['diarization', 'a child with language skills, 2 speakers', 'language'],
    ['diarization', 'the language of flowers, 2 speakers', 'language'],
    ['diarization', "a poster that says 'language en'", 'language'],
    ['lora', 'a token string MYSTYLE printed on a mug, lora rank 8', 'token_string'],
    ['waveform', 'neon bars color the whole frame, 40 bars', 'bars_color'],
  ] as [Model, string, string][])('%s: %s', (model, text, field) => {
    expect(placed(build(model, text))).not.toHaveProperty(field);
  });
});
