import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateContractTypes, GENERATED_TYPES_PATH } from '../../scripts/contract-types.ts';
import { isVettedError } from '../../src/errors.ts';
import { assertContract, pointerToDotted } from '../../src/schema/contracts.ts';

describe('contracts', () => {
  it('generated types match the schemas (run `npm run gen:types` when this fails)', async () => {
    const generated = await generateContractTypes();
    expect(readFileSync(GENERATED_TYPES_PATH, 'utf8')).toBe(generated);
  });

  it('gen:types --check, the command people run by hand, agrees', () => {
    const out = execFileSync('node_modules/.bin/tsx', ['scripts/gen-types.ts', '--check'], { encoding: 'utf8' });
    expect(out).toContain('up to date');
  });

  it('accepts the smallest request', () => {
    expect(assertContract('generation-request', { prompt: 'a cat', model: 'acme/cat' }, 'request')).toEqual({ prompt: 'a cat', model: 'acme/cat' });
  });

  it('accepts a version with dots and dashes, as tool configs name them (owner/name:v1.0-beta)', () => {
    expect(assertContract('generation-request', { prompt: 'a cat', model: 'acme/cat:v1.0-beta' }, 'request')).toMatchObject({ model: 'acme/cat:v1.0-beta' });
  });

  it('accepts an attachment or callback URL whose scheme is written in capitals, and a mime type in capitals', () => {
    const request = { prompt: 'a cat', model: 'acme/cat', attachments: [{ url: 'HTTPS://X.TEST/a.png', mimeType: 'IMAGE/PNG' }], callbackUrl: 'Http://hooks.test/x' };
    expect(assertContract('generation-request', request, 'request')).toEqual(request);
  });

  it.each([
    [{ prompt: 1 }, 'prompt', 'must be string'],
    [{ model: 'not a model' }, 'model', 'owner/name'],
    [{ attachments: [{ url: 'file:///etc/passwd', mimeType: 'image/png' }] }, 'attachments[0].url', 'http(s)'],
    [{ attachments: [{ url: 'https://x.test/a.png' }] }, 'attachments[0].mimeType', 'required'],
    [{ surprise: true }, 'surprise', 'not an allowed field'],
    [{ policy: { mode: 'auto', minConfidence: 2 } }, 'policy', ''],
    [{ edits: { 'bad name': 1 } }, 'edits', ''],
    [{ requestKey: '../../etc' }, 'requestKey', 'must match'],
  ])('refuses %j naming %s', (body, field, reason) => {
    try {
      assertContract('generation-request', body, 'request');
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(isVettedError(error)).toBe(true);
      if (!isVettedError(error)) return;
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.field?.startsWith(field)).toBe(true);
      expect(error.message).toContain(reason);
    }
  });

  it('turns JSON pointers into dotted field paths', () => {
    expect(pointerToDotted('/attachments/0/url')).toBe('attachments[0].url');
    expect(pointerToDotted('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(pointerToDotted('')).toBe('');
  });
});
