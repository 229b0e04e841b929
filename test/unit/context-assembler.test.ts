import { describe, expect, it } from 'vitest';
import { assembleContext } from '../../src/stages/context-assembler.ts';
import { detectSafetyFlags } from '../../src/stages/safety-flags.ts';

const options = { maxAttachmentBytes: 1000 };

describe('assembleContext', () => {
  it('gathers prompt, conversation, attachments, profile and edits', () => {
    const bundle = assembleContext(
      {
        prompt: '  a red fox  ',
        conversation: [{ role: 'user', content: 'hi' }],
        attachments: [{ url: 'https://cdn.test/img/fox%20photo.PNG', mimeType: 'IMAGE/PNG' }],
        userProfile: { locale: 'en-GB' },
        edits: { width: 512, seed: 1 },
      },
      { ...options, reviewEdits: { seed: 7 } },
    );
    expect(bundle.prompt).toBe('a red fox');
    expect(bundle.attachments).toEqual([{ url: 'https://cdn.test/img/fox%20photo.PNG', mimeType: 'image/png', name: 'fox photo.PNG' }]);
    expect(bundle.humanEdits).toEqual({ width: 512, seed: 7 });
    expect(bundle.userProfile).toEqual({ locale: 'en-GB' });
    expect(bundle.safetyFlags).toEqual([]);
  });

  it('uses the last user turn when the request has no prompt', () => {
    const bundle = assembleContext(
      { conversation: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'draw a whale' }, { role: 'assistant', content: '' }] },
      options,
    );
    expect(bundle.prompt).toBe('draw a whale');
  });

  it.each([[''], ['   '], ['\n\t']])('uses the last user turn when the prompt is blank (%j)', (prompt) => {
    const bundle = assembleContext({ prompt, conversation: [{ role: 'user', content: 'a red fox in the snow, seed=7' }] }, options);
    expect(bundle.prompt).toBe('a red fox in the snow, seed=7');
  });

  it('keeps a prompt that says something over the conversation', () => {
    expect(assembleContext({ prompt: ' a cat ', conversation: [{ role: 'user', content: 'a dog' }] }, options).prompt).toBe('a cat');
  });

  it('refuses an oversized attachment naming the field and the limit', () => {
    expect(() => assembleContext({ attachments: [{ url: 'https://x.test/a', mimeType: 'image/png' }, { url: 'https://x.test/b', mimeType: 'image/png', sizeBytes: 1001 }] }, options))
      .toThrow(/attachments\[1\]\.sizeBytes is 1001 bytes, over the limit of 1000/);
  });

  it('refuses a URL that is not http(s) even if it slipped past the contract', () => {
    expect(() => assembleContext({ attachments: [{ url: 'ftp://x.test/a', mimeType: 'image/png' }] }, options)).toThrow(/attachments\[0\]\.url must be http\(s\)/);
  });
});

describe('detectSafetyFlags', () => {
  it.each([
    ['mail me at jane.doe@example.com', 'email_address'],
    ['call +44 20 7946 0958 tomorrow', 'phone_number'],
    ['my number is 555-123-4567', 'phone_number'],
    ['card 4111 1111 1111 1111', 'payment_card'],
    ['ssn 123-45-6789', 'government_id'],
  ])('flags %s as %s', (text, code) => {
    expect(detectSafetyFlags(text).map((f) => f.code)).toContain(code);
  });

  it.each(['a 1024 768 512 grid', 'width 1920 height 1080', 'card game with 1234 5678 9012 3456 points', 'seed 42, 16:9'])('does not flag "%s"', (text) => {
    expect(detectSafetyFlags(text)).toEqual([]);
  });
});
