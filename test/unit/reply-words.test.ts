/** The fast path's word lists, language by language: each loads, means what it says, and none contradicts another. */
import { describe, expect, it } from 'vitest';
import { fastPath } from '../../src/review/reply/fast-path.ts';
import { normalizeReply } from '../../src/review/reply/normalize.ts';
import { replyWords, WORD_LANGUAGES } from '../../src/review/reply/words.ts';

const yesNo = { expectedInput: 'yes_no' as const, source: 'planner' as const, question: 'q', options: [], editableFields: [] };
const SAMPLES: Record<(typeof WORD_LANGUAGES)[number], [string, string]> = {
  en: ['Yes please', 'No thanks'], he: ['כן', 'לא תודה'], es: ['Sí', 'No, gracias'], fr: ['Oui', 'Non merci'],
  de: ['Ja klar', 'Nein danke'], pt: ['Sim', 'Não, obrigado'], ru: ['Да', 'Нет, спасибо'], ar: ['نعم', 'لا شكرًا'],
};

describe.each(WORD_LANGUAGES)('%s', (language) => {
  const list = replyWords().byLanguage[language];

  it('has yes, no, both and all words', () => {
    for (const key of ['yes', 'no', 'both', 'all'] as const) expect(list[key].length, key).toBeGreaterThan(0);
  });

  it('a sample yes and no decide, whole and nothing more', () => {
    const [yes, no] = SAMPLES[language];
    expect(fastPath(yes, yesNo)).toEqual({ approved: true });
    expect(fastPath(no, yesNo)).toEqual({ approved: false });
    expect(fastPath(`${yes} ${no}`, yesNo)).toBeUndefined();
    expect(fastPath(`${yes}?`, yesNo)).toBeUndefined();
  });

  it('none of its words is a yes in one list and a no in another language', () => {
    const words = replyWords();
    for (const word of list.yes) expect(words.no.has(word), `${language} yes "${word}"`).toBe(false);
    for (const word of list.no) expect(words.yes.has(word), `${language} no "${word}"`).toBe(false);
  });
});

describe('normalizeReply', () => {
  it('drops what does not change a reply, and remembers a question', () => {
    expect(normalizeReply('\u200f  YES!! \u200e')).toEqual({ text: 'yes', asked: false });
    expect(normalizeReply("Don't")).toEqual({ text: 'dont', asked: false });
    expect(normalizeReply('حسنًا')).toEqual({ text: 'حسنا', asked: false });
    expect(normalizeReply('¿Sí?')).toEqual({ text: 'sí', asked: true });
    expect(normalizeReply('٣')).toEqual({ text: '3', asked: false });
  });
});
