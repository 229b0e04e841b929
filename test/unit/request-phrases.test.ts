/**
 * The heuristic builder's request table (src/builders/request-table.ts) on real catalog models: token limits,
 * durations, output languages and output/subtitle formats are placed where the schema has a matching field
 * (and cut from the prompt), and reported as `unusedRequest`, with the reason, where it has none. Well over
 * a hundred phrasings.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { ModelSchema, PolicySpec, RequestBundle } from '../../src/generated/contracts.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { decideGate, payloadHash } from '../../src/stages/gate.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { catalogModelName, loadReplicateCatalog } from '../support/replicate-catalog.ts';

const MODELS = [
  'meta/meta-llama-3-8b-instruct', 'meta/meta-llama-3-70b-instruct', 'ibm-granite/granite-3.0-8b-instruct',
  'meta/musicgen', 'zsxkib/mmaudio', 'openai/whisper', 'lucataco/xtts-v2', 'vaibhavs10/incredibly-fast-whisper',
  'black-forest-labs/flux-schnell',
] as const;
type ModelName = (typeof MODELS)[number];

const schemas = new Map<ModelName, ModelSchema>();
beforeAll(() => {
  const wanted = new Set<string>(MODELS);
  for (const model of loadReplicateCatalog()) {
    const name = catalogModelName(model);
    if (wanted.has(name)) schemas.set(name as ModelName, extractModelSchema(model).modelSchema);
  }
  expect([...schemas.keys()].sort()).toEqual([...MODELS].sort());
}, 120_000);

function build(model: ModelName, prompt: string) {
  const bundle: RequestBundle = { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
  return buildHeuristicPayload({ bundle, schema: schemas.get(model) as ModelSchema });
}

/** [model, phrasing, field, value, the phrase as written] */
type Placed = [ModelName, string, string, unknown, string];

const TOKEN_TEMPLATES = [
  ['write a haiku about autumn, max {n} tokens', 'max {n} tokens'],
  ['explain quantum computing in at most {n} tokens', 'at most {n} tokens'],
  ['summarize the plot of Hamlet, up to {n} tokens', 'up to {n} tokens'],
  ['answer briefly, no more than {n} tokens', 'no more than {n} tokens'],
  ['tell me a joke, limit of {n} tokens', 'limit of {n} tokens'],
  ['describe Rome, {n} tokens max', '{n} tokens max'],
  ['a short story about a robot, maximum {n} tokens', 'maximum {n} tokens'],
  ['list three fruits; max tokens: {n}', 'max tokens: {n}'],
  ['a limerick about cheese, keep it under {n} tokens', 'under {n} tokens'],
] as const;
const TOKEN_MODELS = ['meta/meta-llama-3-8b-instruct', 'meta/meta-llama-3-70b-instruct', 'ibm-granite/granite-3.0-8b-instruct'] as const;

const DURATION_TEMPLATES = [
  ['an upbeat jazz tune, {n} seconds', '{n} seconds'],
  ['a calm piano melody lasting {n} seconds', '{n} seconds'],
  ['epic orchestral music, {n} sec', '{n} sec'],
  ['lofi beats for {n} secs', '{n} secs'],
  ['a {n}-second drum loop', '{n}-second'],
  ['a {n} second ambient track with rain', '{n} second'],
] as const;

const LANGUAGE_CASES = [
  ['French', 'fr', 'french'],
  ['German', 'de', 'german'],
  ['Spanish', 'es', 'spanish'],
] as const;
const LANGUAGE_TEMPLATES = [
  ['transcribe this in {L}', 'in {L}'],
  ['please transcribe the recording, in {L}', 'in {L}'],
  ['translate to {L}', 'to {L}'],
  ['hello and welcome to the show, into {L}', 'into {L}'],
] as const;

const PLACED: Placed[] = [
  ...TOKEN_MODELS.flatMap((model) =>
    [50, 200].flatMap((n) => TOKEN_TEMPLATES.map(([text, phrase]): Placed => [model, text.replace('{n}', String(n)), 'max_tokens', n, phrase.replace('{n}', String(n))])),
  ),
  ...(['meta/musicgen', 'zsxkib/mmaudio'] as const).flatMap((model) =>
    [8, 25].flatMap((n) => DURATION_TEMPLATES.map(([text, phrase]): Placed => [model, text.replace('{n}', String(n)), 'duration', n, phrase.replace('{n}', String(n))])),
  ),
  ['meta/musicgen', 'a sea shanty, 1 minute', 'duration', 60, '1 minute'],
  ['zsxkib/mmaudio', 'thunder and rain, 0.5 minutes', 'duration', 30, '0.5 minutes'],
  ...LANGUAGE_CASES.flatMap(([language, code, lower]) =>
    LANGUAGE_TEMPLATES.flatMap(([text, phrase]): Placed[] => [
      ['openai/whisper', text.replace('{L}', language), 'language', code, phrase.replace('{L}', language)],
      ['lucataco/xtts-v2', text.replace('{L}', language), 'language', code, phrase.replace('{L}', language)],
      ['vaibhavs10/incredibly-fast-whisper', text.replace('{L}', language), 'language', lower, phrase.replace('{L}', language)],
    ]),
  ),
  ['openai/whisper', 'transcribe this as srt', 'transcription', 'srt', 'as srt'],
  ['openai/whisper', 'transcribe the meeting as vtt subtitles', 'transcription', 'vtt', 'as vtt subtitles'],
  ['openai/whisper', 'srt subtitles please', 'transcription', 'srt', 'srt subtitles'],
  ['openai/whisper', 'transcribe it in vtt format', 'transcription', 'vtt', 'in vtt format'],
  ['openai/whisper', 'transcribe this as plain text', 'transcription', 'plain text', 'as plain text'],
  ['openai/whisper', 'in French, as srt', 'transcription', 'srt', 'as srt'],
  ['meta/musicgen', 'a jazz tune as mp3', 'output_format', 'mp3', 'as mp3'],
  ['meta/musicgen', 'a techno loop in wav format', 'output_format', 'wav', 'in wav format'],
];

/** [model, phrasing, the phrase, a word of the reason] */
type Unused = [ModelName, string, string, RegExp];

const UNUSED: Unused[] = [
  ['black-forest-labs/flux-schnell', 'a red fox in the snow, 30 seconds', '30 seconds', /no input for a duration/],
  ['black-forest-labs/flux-schnell', 'a red fox, max 50 tokens', 'max 50 tokens', /no input for a token limit/],
  ['black-forest-labs/flux-schnell', 'a red fox poster, as srt', 'as srt', /output_format takes only/],
  ['black-forest-labs/flux-schnell', 'a welcome poster, in French', 'in French', /no input for an output language/],
  ['meta/meta-llama-3-8b-instruct', 'write a haiku about autumn, in French', 'in French', /no input for an output language/],
  ['meta/meta-llama-3-8b-instruct', 'a poem, 30 seconds to read', '30 seconds', /no input for a duration/],
  ['meta/musicgen', 'an upbeat jazz tune, max 100 tokens', 'max 100 tokens', /no input for a token limit/],
  ['meta/musicgen', 'a jazz tune as flac', 'as flac', /output_format takes only/],
  ['openai/whisper', 'transcribe this in Klingon, as json', 'as json', /transcription takes only/],
  ['lucataco/xtts-v2', 'good morning everyone, in Japanese', 'in Japanese', /language takes only/],
];

describe('request phrases placed where the model has the field', () => {
  it.each(PLACED)('%s: "%s" → %s', (model, text, field, value, phrase) => {
    const candidate = build(model, text);
    expect(candidate.payload[field]).toEqual(value);
    expect(candidate.provenance[field]).toMatchObject({ source: 'user_prompt', evidence: phrase });
    expect(candidate.unusedRequest ?? []).toEqual([]);
    for (const name of ['prompt', 'text']) {
      if (typeof candidate.payload[name] === 'string') expect(candidate.payload[name]).not.toContain(phrase);
    }
  });

  it('covers at least a hundred phrasings over the four kinds', () => {
    expect(PLACED.length + UNUSED.length).toBeGreaterThanOrEqual(100);
  });
});

describe('request phrases the model has no place for', () => {
  it.each(UNUSED)('%s: "%s" reports "%s"', (model, text, phrase, reason) => {
    const candidate = build(model, text);
    expect(candidate.unusedRequest).toContainEqual({ phrase, reason: expect.stringMatching(reason) });
    expect(candidate.notes?.join('\n')).toContain(`"${phrase}" is not in the payload`);
  });
});

describe('what an unplaced request phrase does to the run', () => {
  it('is a warning under every policy, and parks under auto_with_thresholds and require_human', () => {
    const schema = schemas.get('black-forest-labs/flux-schnell') as ModelSchema;
    const bundle: RequestBundle = { prompt: 'a red fox, 30 seconds', conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
    const candidate = buildHeuristicPayload({ bundle, schema });
    const issues = validatePayload({ candidate, schema, bundle, quarantine: ExampleQuarantine.empty() });
    expect(issues).toContainEqual(expect.objectContaining({ code: 'unused_request', severity: 'warning', message: expect.stringContaining('"30 seconds"') }));
    const gate = (policy: PolicySpec) => decideGate({ issues, policy, candidate, schema, bundle, approvedPayloadHash: null });
    expect(gate({ mode: 'auto' })).toEqual({ action: 'execute' });
    expect(gate({ mode: 'auto_with_thresholds' })).toMatchObject({ action: 'park', reason: 'request_partly_unused', question: expect.stringContaining('"30 seconds"') });
    expect(gate({ mode: 'require_human' })).toMatchObject({ action: 'park', reason: 'request_partly_unused' });
    // A person who approved (or wrote) this very payload is not asked again.
    expect(decideGate({ issues, policy: { mode: 'require_human' }, candidate, schema, bundle, approvedPayloadHash: payloadHash(candidate) })).toEqual({ action: 'execute' });
  });
});
