/**
 * Smaller settings read as a person reads them, each with the words that must not set it: a language code after
 * the word for language, subtitles asked away, the first of a set of inputs named by its plain name (`Tom's
 * voice` → voice_a), a number of a unit that is the length of what is made or a part it comes with (`50 bars
 * long`, `a waveform video with 50 bars`), a code of two letters beside what is made (`audio en español`), and
 * the user's own spacing before punctuation kept where the prompt was cut.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { removeSpans } from '../../src/builders/prompt-cleanup.ts';
import type { CandidatePayload, FieldSpec } from '../../src/generated/contracts.ts';
import { deriveValue, readSettings } from '../../src/reading/index.ts';
import { CATALOG_LOAD_MS, CatalogModels, field } from '../support/reading-builds.ts';

const MODELS = new CatalogModels({
  diarization: 'thomasmol/whisper-diarization',
  whisper: 'openai/whisper',
  subtitles: 'm1guelpf/whisper-subtitles',
  tortoise: 'afiaka87/tortoise-tts',
  waveform: 'fofr/audio-to-waveform',
  llama: 'meta/meta-llama-3.1-405b-instruct',
});
type ModelName = keyof typeof MODELS.names;

beforeAll(() => MODELS.load(), CATALOG_LOAD_MS);

function spec(name: string, type: FieldSpec['type'], extra: Partial<FieldSpec> = {}): FieldSpec {
  return field(name, 'other', type, extra);
}

function readOne(text: string, fields: FieldSpec[]): Record<string, unknown> {
  return Object.fromEntries(readSettings(text, fields).map((reading) => [reading.field, reading.value]));
}

/** Values read from words that make a setting wherever they stand (the others need a clause of their own). */
function firmReadings(text: string, fields: FieldSpec[]): unknown[] {
  return readSettings(text, fields).filter((reading) => reading.firm).map((reading) => reading.value);
}

/** The candidate for `prompt`, which the validator must pass as it is. */
function build(model: ModelName, prompt: string): CandidatePayload {
  const { candidate, blocking } = MODELS.checked(model, prompt);
  expect(blocking, prompt).toEqual([]);
  return candidate;
}

const LANGUAGE = spec('language', 'string');

describe('a language code right after the word for language', () => {
  it.each([
    ['3 speakers, language en', 'en'],
    ['language de, diarization on', 'de'],
    ['idioma: es', 'es'],
    ['langue fr, deux locuteurs', 'fr'],
    ['язык ru', 'ru'],
  ])('%s → %s', (text, code) => {
    expect(readOne(text, [LANGUAGE]).language).toBe(code);
    expect(deriveValue('language_name', text, LANGUAGE)?.value).toBe(code);
  });

  it.each(['a video about language en masse', 'the language de facto used at work', 'language is a virus'])('not in "%s"', (text) => {
    expect(readOne(text, [LANGUAGE]).language).toBeUndefined();
  });

  it('is placed on a model whose language input is free text', () => {
    const candidate = build('diarization', '3 speakers, output format both, language en');
    expect(candidate.payload.language).toBe('en');
    expect(candidate.payload.num_speakers).toBe(3);
  });
});

describe('a code of two letters beside what is made is a small word of the sentence', () => {
  const AUDIO_LANGUAGE = spec('audio_language', 'string', { enum: ['en', 'es', 'fr', 'de'] });

  it.each(['un podcast con audio en español', 'une vidéo en français', 'ein Video de luxe'])('"%s" names no option code', (text) => {
    const read = readSettings(text, [AUDIO_LANGUAGE]).filter((reading) => reading.conversion === 'enum_synonym');
    expect(read).toEqual([]);
  });

  it('an option of three letters or more beside what is made still counts', () => {
    const STYLE = spec('style', 'string', { enum: ['anime', 'realistic'] });
    expect(readOne('an anime video of a fox', [STYLE]).style).toBe('anime');
  });
});

describe('subtitles asked away', () => {
  const TRANSCRIPTION = spec('transcription', 'string', { enum: ['plain text', 'srt', 'vtt'], hasDefault: true, default: 'plain text' });
  const SUBTITLES_ONLY = spec('format', 'string', { enum: ['srt', 'vtt'], hasDefault: true, default: 'vtt' });

  it.each([
    ['transcribe this, no subtitles', 'plain text'],
    ['transcríbelo, sin subtítulos', 'plain text'],
    ['transcris-le, sans sous-titres', 'plain text'],
    ['transcribe this and give me subtitles', 'srt'],
    ['subtitles in vtt format', 'vtt'],
  ])('%s → %s', (text, value) => {
    expect(readOne(text, [TRANSCRIPTION]).transcription).toBe(value);
  });

  it('pick no subtitle format, and are reported where every option is one', () => {
    expect(readOne('no subtitles please', [SUBTITLES_ONLY]).format).toBeUndefined();
    const candidate = build('subtitles', 'no subtitles please');
    expect(candidate.unusedRequest?.map((item) => item.phrase)).toContain('no subtitles');
  });

  it('leave a transcription model on plain text', () => {
    expect(build('whisper', 'transcribe this, no subtitles').payload.transcription).toBe('plain text');
  });
});

describe('the first of a set of inputs named by its plain name', () => {
  const voices = ['tom', 'emma', 'daniel', 'random', 'disabled'];
  const SET = [spec('voice_a', 'string', { enum: voices }), spec('voice_b', 'string', { enum: voices }), spec('voice_c', 'string', { enum: voices })];

  it.each([
    ["Read 'The quick brown fox' in Tom's voice", 'tom'],
    ['read this with the voice of Emma', 'emma'],
    ['voice: daniel', 'daniel'],
  ])('%s → voice_a %s', (text, voice) => {
    const read = readOne(text, SET);
    expect(read.voice_a).toBe(voice);
    expect(read.voice_b).toBeUndefined();
  });

  it('not from a name in the text to read', () => {
    expect(readOne('Read aloud: Tom and Emma met at noon.', SET)).toEqual({});
  });

  it('on a real speech model', () => {
    expect(build('tortoise', "Read 'The quick brown fox' in Tom's voice").payload.voice_a).toBe('tom');
  });
});

describe('a number of a unit that is the length of what is made or a part it comes with', () => {
  it.each([
    ['waveform video with 50 bars, bars color #ff8800', 50],
    ['make it 50 bars long', 50],
    ['a waveform, 30 bars', 30],
  ])('%s → bar_count %d', (text, bars) => {
    expect(build('waveform', text).payload.bar_count).toBe(bars);
  });

  it.each(['a picture of a prison with 50 bars', 'a temple with 100 steps'])('not in "%s"', (text) => {
    expect(build('waveform', text).payload.bar_count).toBe(100);
    const STEPS = spec('steps', 'integer', { minimum: 1, maximum: 500 });
    expect(firmReadings(text, [STEPS])).toEqual([]);
  });

  it('the media word and "with" in other languages', () => {
    const BARS = spec('bar_count', 'integer', { minimum: 1, maximum: 200 });
    expect(firmReadings('un vídeo con 40 barras', [BARS])).toEqual([40]);
    expect(firmReadings('una cárcel con 40 barras', [BARS])).toEqual([]);
  });
});

describe('the prompt keeps the user’s spacing before punctuation', () => {
  it.each([
    ['Quelle heure est-il ? seed 42', 'seed 42', 'Quelle heure est-il ?'],
    ['Attention : un chat, seed 42 !', ', seed 42', 'Attention : un chat !'],
    ['Tu viens ce soir ; seed 42, enfin ?', 'seed 42, ', 'Tu viens ce soir ; enfin ?'],
    ['a cat with seed 42, in a hat', 'seed 42', 'a cat, in a hat'],
    ['a cat with seed 42 ! so cute', 'seed 42', 'a cat ! so cute'],
    ['a cat with seed 42. So cute', 'seed 42', 'a cat. So cute'],
  ])('%s', (text, cut, prompt) => {
    const start = text.indexOf(cut);
    expect(removeSpans(text, [{ start, end: start + cut.length }])).toBe(prompt);
  });
});

describe('a stop sequence asked for in words', () => {
  it.each([
    ['Act as a sommelier. Recommend a wine for grilled salmon, and stop when you write END.', 'END'],
    ['Write a haiku. Stop at ###', '###'],
    ['a poem; stop sequence: </s>', '</s>'],
    ['Escribe un poema y detente cuando escribas «FIN»', 'FIN'],
    ['Écris un poème et arrête-toi quand tu écris FIN', 'FIN'],
    ['Schreib ein Gedicht und hör auf, wenn du ENDE schreibst', 'ENDE'],
    ['Escreva um poema e pare quando escrever "FIM"', 'FIM'],
    ['כתוב שיר ועצור כשאתה כותב END', 'END'],
    ['Напиши стих, остановись, когда напишешь КОНЕЦ', 'КОНЕЦ'],
    ['اكتب قصيدة ثم توقف عندما تكتب END', 'END'],
    ['俳句を書いて、ENDと書いたら止めて', 'END'],
  ])('%s → %s, the words kept in the prompt', (text, mark) => {
    const candidate = build('llama', text);
    expect(candidate.payload.stop_sequences).toBe(mark);
    expect(String(candidate.payload.prompt)).toContain(mark);
  });

  it.each([
    'describe a bus stop at night',
    'a haiku, stop at the end',
    'write a story about a robot that cannot stop at NOTHING',
    'tell me about the movie Stop At Nothing',
  ])('not in "%s"', (text) => {
    expect(build('llama', text).payload.stop_sequences).toBeUndefined();
  });
});
