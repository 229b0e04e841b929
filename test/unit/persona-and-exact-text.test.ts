/**
 * Text the model takes as written: an opening sentence that casts the model in a role goes to its system prompt
 * (nine languages; kept as the request when the model has no system prompt), a labelled text keeps its sentence's
 * own stop, and the prompt keeps the user's punctuation between the clauses it keeps.
 */
import { describe, expect, it } from 'vitest';
import { findPersona } from '../../src/builders/persona-lead.ts';
import { removeSpans } from '../../src/builders/prompt-cleanup.ts';
import { scanPromptDirectives } from '../../src/builders/prompt-directives.ts';
import { buildOn, field, schemaOf } from '../support/reading-builds.ts';

const CHAT_MODEL = schemaOf([
  field('prompt', 'prompt', 'string', { required: true }),
  field('system_prompt', 'system_prompt', 'string'),
  field('max_tokens', 'other', 'integer', { minimum: 1, maximum: 4096 }),
]);
const PLAIN_CHAT_MODEL = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('max_tokens', 'other', 'integer')]);
const SPEECH_MODEL = schemaOf([
  field('prompt', 'prompt', 'string'),
  field('text', 'prompt', 'string'),
  field('temperature', 'other', 'number', { minimum: 0, maximum: 1 }),
]);

describe('a persona at the start of the request', () => {
  it.each([
    ['Act as a travel agent. Plan three days in Lisbon.', 'Act as a travel agent.', 'Plan three days in Lisbon.'],
    ["You're an old sea captain who answers in riddles. Where do whales sleep?", "You're an old sea captain who answers in riddles.", 'Where do whales sleep?'],
    ['Actúa como un chef vasco. ¿Qué cocino hoy?', 'Actúa como un chef vasco.', '¿Qué cocino hoy?'],
    ['Tu es un guide de montagne prudent. Quel sac emporter pour deux jours.', 'Tu es un guide de montagne prudent.', 'Quel sac emporter pour deux jours.'],
    ['Du bist ein geduldiger Mathelehrer. Erkläre Brüche.', 'Du bist ein geduldiger Mathelehrer.', 'Erkläre Brüche.'],
    ['Aja como um jardineiro experiente. Como podo rosas?', 'Aja como um jardineiro experiente.', 'Como podo rosas?'],
    ['תתנהג כמו מדריך טיולים. מה כדאי לראות בחיפה?', 'תתנהג כמו מדריך טיולים.', 'מה כדאי לראות בחיפה?'],
    ['Представь, что ты опытный пекарь. Как испечь хлеб?', 'Представь, что ты опытный пекарь.', 'Как испечь хлеб?'],
    ['تقمص دور مرشد سياحي. ماذا أزور في القاهرة؟', 'تقمص دور مرشد سياحي.', 'ماذا أزور في القاهرة؟'],
    ['ベテランの庭師として振る舞ってください。バラの剪定方法は？', 'ベテランの庭師として振る舞ってください。', 'バラの剪定方法は？'],
  ])('%j: the role goes to the system prompt, the rest is the request', (prompt, system, rest) => {
    const result = buildOn(CHAT_MODEL, prompt);
    expect(result.payload.system_prompt).toBe(system);
    expect(result.payload.prompt).toBe(rest);
    expect(result.provenance.system_prompt).toMatchObject({ source: 'user_prompt', evidence: system });
  });

  it('keeps the role in the request when the model has no system prompt', () => {
    const result = buildOn(PLAIN_CHAT_MODEL, 'Act as a travel agent. Plan three days in Lisbon.');
    expect(result.payload.prompt).toBe('Act as a travel agent. Plan three days in Lisbon.');
  });

  it.each([
    'You are a genius?! Tell me more.',
    'Plan three days in Lisbon. Act as a travel agent.',
    'Act as a travel agent.',
    'You are so kind. Thanks!',
    'Write a story where you are a dragon. Make it short.',
    'אתה יכול לעזור לי? מה השעה?',
  ])('casts no role from %j', (prompt) => {
    expect(findPersona(prompt)).toBeUndefined();
    expect(buildOn(CHAT_MODEL, prompt).payload.system_prompt).toBeUndefined();
  });

  it('lets a labelled system prompt win over a role in the same request', () => {
    const result = buildOn(CHAT_MODEL, 'You are a pirate. system prompt: You are terse. Question: what is a knot?');
    expect(result.payload.system_prompt).toBe('You are terse.');
  });

  it('still reads the settings after the role', () => {
    const result = buildOn(CHAT_MODEL, 'Act as a sommelier. Recommend a wine for salmon, max tokens 80');
    expect(result.payload).toMatchObject({ system_prompt: 'Act as a sommelier.', max_tokens: 80 });
    expect(result.payload.prompt).toBe('Recommend a wine for salmon');
  });
});

describe('text copied as written', () => {
  it('keeps the final stop of a labelled text that settings follow', () => {
    const values = Object.fromEntries(scanPromptDirectives('Text: The river is high today. temperature 0.4', SPEECH_MODEL).values.map((found) => [found.field, found.value]));
    expect(values).toEqual({ text: 'The river is high today.', temperature: 0.4 });
  });

  it('keeps a question mark and an exclamation mark too, and never a comma', () => {
    const read = (prompt: string) => scanPromptDirectives(prompt, SPEECH_MODEL).values.find((found) => found.field === 'text')?.value;
    expect(read('Text: Are you coming? temperature 0.2')).toBe('Are you coming?');
    expect(read('Text: Watch out! temperature 0.2')).toBe('Watch out!');
    expect(read('Text: Hello there, friend, temperature 0.2')).toBe('Hello there, friend');
  });

  it.each([
    ['system prompt: You are a tutor. Question: why is 0.999... equal to 1? max tokens 512', 'why is 0.999... equal to 1?'],
    ['Wait... what is a comet?! max tokens 50', 'Wait... what is a comet?!'],
    ['Is 1.5 bigger than 1.50? max tokens 20', 'Is 1.5 bigger than 1.50?'],
  ])('%j keeps the punctuation of the clauses it keeps', (prompt, expected) => {
    expect(removeSpans(prompt, scanPromptDirectives(prompt, CHAT_MODEL).cuts)).toBe(expected);
  });
});
