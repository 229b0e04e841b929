/**
 * A leading instruction is read apart from the content it introduces: its settings are placed, the text after it
 * is what the model's text field takes, and what of it nothing took is reported instead of dropped. Real catalog
 * schemas (a speech model, a voice-cloning model, an image model), through the heuristic builder.
 */
import { describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import { findInstructionLead } from '../../src/builders/instruction-prefix.ts';
import { catalogSchema } from '../support/catalog-schema.ts';
import { bundle } from '../support/fixtures.ts';

const SPEECH = catalogSchema('jaaari/kokoro-82m');
const CLONING = catalogSchema('lucataco/xtts-v2');
const IMAGE = catalogSchema('black-forest-labs/flux-schnell');

function build(schema: typeof SPEECH, prompt: string) {
  return buildHeuristicPayload({ bundle: bundle({ prompt, conversation: [{ role: 'user', content: prompt }] }), schema });
}

describe('a leading instruction before a colon', () => {
  it('sets the speed it names and leaves only the text to speak', () => {
    const result = build(SPEECH, 'read this cheerfully at 1.2× speed: Welcome back to the show.');
    expect(result.payload).toMatchObject({ text: 'Welcome back to the show.', speed: 1.2 });
    expect(result.provenance.speed?.evidence).toBe('1.2× speed');
  });

  it('reports the words of the instruction no input took, so a person is asked', () => {
    const result = build(SPEECH, 'read this cheerfully at 1.2× speed: Welcome back to the show.');
    expect(result.unusedRequest).toContainEqual(expect.objectContaining({ phrase: 'read this cheerfully at 1.2× speed', reason: expect.stringContaining('"cheerfully"') }));
    // Made only of instruction words and settings, nothing is left over to report.
    expect(build(SPEECH, 'speed 1.2, read this aloud: Good night.').unusedRequest ?? []).toEqual([]);
  });

  it('reads speech verbs in other languages, spaced or not', () => {
    expect(build(SPEECH, 'sprich das bitte: Herzlich willkommen in Berlin.').payload.text).toBe('Herzlich willkommen in Berlin.');
    expect(build(SPEECH, 'ゆっくり読んで：Please keep your belongings with you.').payload.text).toBe('Please keep your belongings with you.');
    expect(build(SPEECH, 'תקריא את זה: The next stop is Central Station.').payload.text).toBe('The next stop is Central Station.');
  });

  it('keeps a colon that belongs to the description, a ratio or a quote', () => {
    expect(build(IMAGE, 'A poster: a cat on a mat').payload.prompt).toBe('A poster: a cat on a mat');
    expect(build(IMAGE, 'use these colours: red, blue and gold').payload.prompt).toBe('use these colours: red, blue and gold');
    expect(build(IMAGE, 'a sign reading "Menu: soup" on a wall').payload.prompt).toBe('a sign reading "Menu: soup" on a wall');
    expect(findInstructionLead('a cat at 10:30 on a clock', [], [])).toBeUndefined();
  });

  it('takes an instruction that names only what an attachment is for', () => {
    const lead = findInstructionLead('use this as the first frame: the girl turns and waves', [], []);
    expect(lead?.spans).toEqual([{ start: 0, end: 'use this as the first frame:'.length }]);
    expect(lead?.unused).toEqual([]);
  });

  it('does not take a long description that happens to hold a colon', () => {
    const long = 'read the old red book on the wooden table near the window in the quiet evening light while it rains: soft';
    expect(findInstructionLead(long, [], [])).toBeUndefined();
    expect(findInstructionLead('A cat sleeps. Then say: hello', [], [])).toBeUndefined();
  });
});

describe('a quote after a speech verb', () => {
  it('is the text to say when every word around it is an instruction', () => {
    expect(build(CLONING, "say 'Good morning, team' in my voice sample, in French").payload.text).toBe('Good morning, team');
  });

  it('stays whole in a description', () => {
    expect(build(IMAGE, 'a sign that says "FLUX 1.1 Pro" over a bar').payload.prompt).toBe('a sign that says "FLUX 1.1 Pro" over a bar');
    expect(build(SPEECH, "say 'hello' to the grumpy neighbour over the fence").payload.text).toBe("say 'hello' to the grumpy neighbour over the fence");
  });
});

describe('a request to translate', () => {
  const WHISPER = catalogSchema('openai/whisper');
  const audio = { url: 'https://files.example.com/talk.mp3', mimeType: 'audio/mpeg' };

  function transcribe(prompt: string) {
    return buildHeuristicPayload({ bundle: bundle({ prompt, attachments: [audio] }), schema: WHISPER });
  }

  it('turns the translate switch on and never sets the source language to the target', () => {
    for (const prompt of ['translate this German podcast into English', 'traduis ce podcast italien en anglais', 'переведи на английский это интервью']) {
      const result = transcribe(prompt);
      expect(result.payload.translate, prompt).toBe(true);
      expect(result.provenance.translate?.source, prompt).toBe('user_prompt');
      expect(result.payload.language, prompt).not.toBe('en');
    }
  });

  it('leaves the switch off, and reads the spoken language, when nothing asks for a translation', () => {
    const result = transcribe('transcribe this, it is in English');
    expect(result.payload.translate).toBe(false);
    expect(result.payload.language).toBe('en');
  });
});
