/**
 * A role stated with a bare pronoun, in languages that mark no article (`Ты опытный шахматный тренер.`,
 * `أنت طاهٍ محترف.`, `אתה מדריך טיולים בנגב.`, `あなたは京都の観光ガイドです。`): the opening statement goes to the
 * system prompt and the rest stays the request; a one-word compliment, a question or a lone statement casts nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_LOAD_MS, CatalogModels, placed } from '../support/reading-builds.ts';

const models = new CatalogModels({ chat: 'meta/meta-llama-3.1-405b-instruct' });

beforeAll(() => models.load(), CATALOG_LOAD_MS);

describe('a role stated with a bare pronoun', () => {
  it.each([
    ['Ты опытный шахматный тренер. Как защищаться против дебюта Лондон?', 'Ты опытный шахматный тренер.', 'Как защищаться'],
    ['أنت طاهٍ محترف. كيف أحضّر المنسف؟', 'أنت طاهٍ محترف.', 'كيف أحضّر المنسف'],
    ['אתה מדריך טיולים בנגב. מה כדאי לראות במכתש רמון?', 'אתה מדריך טיולים בנגב.', 'מה כדאי לראות'],
    ['あなたは京都の観光ガイドです。一日で回るおすすめコースは？', 'あなたは京都の観光ガイドです。', '一日で回る'],
  ])('%s', (text, role, request) => {
    const values = placed(models.build('chat', text));
    expect(values.system_prompt).toBe(role);
    expect(String(values.prompt)).toContain(request);
    expect(String(values.prompt)).not.toContain(role);
  });

  it.each([
    'Ты молодец. Напиши стих о море.',
    'あなたは天才です。詩を書いて。',
    'Ты опытный шахматный тренер?',
    'Ты опытный шахматный тренер.',
    'Вы видели этот фильм вчера вечером? Расскажи о нём.',
  ])('casts nothing: %s', (text) => {
    expect(placed(models.build('chat', text))).not.toHaveProperty('system_prompt');
  });
});
