/**
 * Option values read by the name inside them (`af_bella` written "Bella", "the voice of Lewis", "Michael's
 * voice") and formats read from what the output is (`subtitles srt`, `SubRip`, "give me subtitles" for a field
 * whose options are file formats whatever its name).
 */
import { describe, expect, it } from 'vitest';
import type { FieldSpec } from '../../src/generated/contracts.ts';
import { deriveValue, readSettings } from '../../src/reading/index.ts';
import { readableNames } from '../../src/reading/option-words.ts';
import { catalogSchema } from '../support/catalog-schema.ts';
import { buildOn } from '../support/reading-builds.ts';

function options(name: string, values: string[], extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role: 'other', type: 'string', required: false, nullable: false, order: 0, hasDefault: false, enum: values, ...extra };
}

function readOne(text: string, fields: FieldSpec[]): Record<string, unknown> {
  return Object.fromEntries(readSettings(text, fields).map((reading) => [reading.field, reading.value]));
}

const VOICE = options('voice', ['af', 'af_bella', 'af_sarah', 'am_michael', 'bm_lewis', 'bf_emma'], { hasDefault: true, default: 'af' });

describe('names inside coded options', () => {
  it('are the one word of three letters or more beside short codes, when no other option holds it', () => {
    const names = readableNames(['af', 'af_bella', 'am_adam', 'v2/en_speaker_6', 'v2/en_speaker_7', 'large-v2', 'pixel_art', 'realistic_image']);
    expect(Object.fromEntries(names)).toEqual({ bella: 'af_bella', adam: 'am_adam', large: 'large-v2' });
  });

  it('name the option beside the field’s name, in the ways people write it', () => {
    for (const [text, voice] of [
      ['Voice bella, speed 1.2: Welcome back.', 'af_bella'],
      ["say it in Michael's voice: the doors are closing", 'am_michael'],
      ['read it with the voice of Lewis', 'bm_lewis'],
      ["lis-le avec la voix d'Emma", 'bf_emma'],
      ['mit der Stimme von Lewis', 'bm_lewis'],
      ['usa la voz de Sarah', 'af_sarah'],
    ] as const) {
      expect(readOne(text, [VOICE]).voice, text).toBe(voice);
    }
  });

  it('are people in the text when the field is not named beside them', () => {
    expect(readOne('Say: Sarah and Michael met at 2 pm.', [VOICE])).toEqual({});
    expect(readOne('Bella', [VOICE])).toEqual({});
    expect(readOne('only Emma', [VOICE])).toEqual({});
  });
});

describe('subtitle formats', () => {
  const TRANSCRIPTION = options('transcription', ['plain text', 'srt', 'vtt'], { hasDefault: true, default: 'plain text' });
  const SUBTITLES = options('format', ['srt', 'vtt'], { role: 'output_format', hasDefault: true, default: 'vtt' });

  it('are read into a field whose options are file formats, whatever its name', () => {
    expect(readOne('transcribe this and give me subtítulos srt', [TRANSCRIPTION])).toEqual({ transcription: 'srt' });
    expect(readOne('нужны субтитры vtt', [TRANSCRIPTION])).toEqual({ transcription: 'vtt' });
    expect(readOne('make SubRip subtitles for the talk', [SUBTITLES])).toEqual({ format: 'srt' });
    expect(readOne('export it as WebVTT', [SUBTITLES])).toEqual({ format: 'vtt' });
  });

  it('are asked for by the word for subtitles alone: the default when it is one, else the first subtitle format', () => {
    expect(readOne('transcribe it and give me subtitles', [TRANSCRIPTION])).toEqual({ transcription: 'srt' });
    expect(readOne('legendas, por favor', [SUBTITLES])).toEqual({ format: 'vtt' });
    // A format named in the same clause is the one asked for.
    expect(readSettings('srt形式の字幕を作って', [TRANSCRIPTION]).map((reading) => reading.value)).toEqual(['srt']);
    expect(deriveValue('format_word', 'subtitles', TRANSCRIPTION)?.value).toBe('srt');
  });

  it('are not read where no field offers them, nor into a second format field beside a named output format', () => {
    const image = options('output_format', ['png', 'jpg', 'webp'], { role: 'output_format' });
    expect(readOne('a film still with subtitles', [image])).toEqual({});
    const container = options('container', ['mp4', 'webm']);
    expect(readOne('save it as webm', [options('output_format', ['mp4', 'webm'], { role: 'output_format' }), container])).toEqual({ output_format: 'webm' });
  });
});

describe('against catalog models', () => {
  const build = (model: string, prompt: string) => buildOn(catalogSchema(model), prompt);

  it('take a possessed field name as whose, not as a label with the text after its colon as the value', () => {
    const result = build('jaaari/kokoro-82m', "in Emma's voice: The shop closes at six.");
    expect(result.payload).toMatchObject({ voice: 'bf_emma', text: 'The shop closes at six.' });
  });

  it('read a language after a lead of a script written without spaces (言語は…)', () => {
    expect(build('openai/whisper', '言語はフランス語、字幕はsrtで').payload).toMatchObject({ language: 'fr', transcription: 'srt' });
  });
});
