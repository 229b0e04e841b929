/**
 * Numbers and setting words that are content, not settings, on real catalog schemas: a question about a
 * setting (`what does temperature 0.5 mean?`) and a length that qualifies another thing (`a 30 minute pizza
 * delivery`) set nothing, and are not reported as unplaced either; the same words said as settings still are.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_LOAD_MS, CatalogModels, placed } from '../support/reading-builds.ts';

const models = new CatalogModels({ music: 'meta/musicgen', chat: 'meta/meta-llama-3-8b-instruct' });

beforeAll(() => models.load(), CATALOG_LOAD_MS);

describe('a question about a setting is content', () => {
  it.each([
    'what does temperature 0.5 mean?',
    'explain what max tokens 500 does in an API call',
    'what is the difference between temperature 0.2 and 0.9?',
    '¿qué significa temperatura 0.5?',
  ])('%s: sets nothing and reports nothing', (text) => {
    const candidate = models.build('chat', text);
    expect(placed(candidate)).toEqual({ prompt: text });
    expect(candidate.unusedRequest ?? []).toEqual([]);
  });

  it('still reads the same setting said as one, after the question', () => {
    const candidate = models.build('chat', 'Explain quantum physics, max tokens 200');
    expect(placed(candidate)).toMatchObject({ max_tokens: 200 });
  });
});

describe('a length that qualifies another thing is content', () => {
  it('a 30 minute pizza delivery: the length stays in the prompt and sets no duration', () => {
    const text = 'a cheesy jingle about a 30 minute pizza delivery guarantee';
    const candidate = models.build('music', text);
    expect(placed(candidate)).toEqual({ prompt: text });
    expect(candidate.unusedRequest ?? []).toEqual([]);
  });

  it.each([
    ['an 8 second ambient track', 8],
    ['a 2-minute chill lofi track, stereo please', 120],
    ['30 seconds slow piano', 30],
    ['اجعله 45 ثانية وبصيغة mp3', 45],
  ])('%s: a length of what is made, or said for itself, is still read', (text, seconds) => {
    expect(placed(models.build('music', text))).toMatchObject({ duration: seconds });
  });
});

describe('a time followed by before or until is a moment, not a length', () => {
  it.each([
    'a song about the last 10 seconds before midnight',
    'песня про 30 секунд до старта ракеты',
    'una canción sobre los 30 segundos antes del despegue',
    'ein Lied über die 10 Sekunden vor dem Start',
    'שיר על 30 שניות לפני ההמראה',
    'أغنية عن 30 ثانية قبل الإقلاع',
    '発車30秒前のホームの曲',
  ])('%s: the moment stays in the prompt and sets no duration', (text) => {
    const candidate = models.build('music', text);
    expect(placed(candidate)).toEqual({ prompt: text });
    expect(candidate.unusedRequest ?? []).toEqual([]);
  });

  it('the same length with no such word is still read', () => {
    expect(placed(models.build('music', 'песня про старт ракеты, 30 секунд'))).toMatchObject({ duration: 30 });
  });
});
