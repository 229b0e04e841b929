import { describe, expect, it } from 'vitest';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { findUnstorableText } from '../../src/util/storable-text.ts';

describe('findUnstorableText (what jsonb cannot hold)', () => {
  it('names the first NUL or unpaired surrogate, in a value or a key, by its path', () => {
    expect(findUnstorableText({ prompt: 'a fox\u0000' })).toMatchObject({ path: 'prompt', reason: expect.stringContaining('U+0000') });
    expect(findUnstorableText({ conversation: [{ role: 'user', content: 'ok' }, { role: 'user', content: 'bad \ud800 text' }] })).toMatchObject({
      path: 'conversation[1].content',
      reason: expect.stringContaining('surrogate'),
    });
    expect(findUnstorableText({ edits: { 'a\u0000b': 1 } })).toMatchObject({ path: 'edits.a\u0000b', reason: expect.stringContaining('its name') });
    expect(findUnstorableText({ lone: '\udc00 low first' })).toMatchObject({ path: 'lone' });
  });

  it('passes well-formed text, emoji (surrogate pairs) included, and deep values without recursion', () => {
    expect(findUnstorableText({ prompt: 'a fox 🦊 in snow', n: 4, list: [null, true, 'é'] })).toBeUndefined();
    let deep: unknown = 'fine';
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(findUnstorableText(deep)).toBeUndefined();
  });

  it('makes the extractor refuse a model source that holds one, naming the field', () => {
    expect(() => extractModelSchema({ model: 'acme/x', example_input: { prompt: 'x\u0000' } })).toThrow(
      expect.objectContaining({ code: 'MODEL_SOURCE_INVALID', field: 'example_input.prompt' }),
    );
  });
});
