import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretKey, maskForView, maskQuerySecrets, maskUrlCredentials, REDACTED } from '../../src/observability/redact.ts';

describe('redaction', () => {
  it.each(['api_key', 'apiKey', 'OPENAI_API_KEY', 'hf_token', 'authorization', 'password', 'client_secret', 'token'])('treats %s as a secret key', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each(['max_tokens', 'suppress_tokens', 'prompt', 'author', 'seed', 'keyword'])('leaves %s alone', (key) => {
    expect(isSecretKey(key)).toBe(false);
  });

  it('scrubs known secret values anywhere and secret-named scalars, but walks structure under secret-looking keys', () => {
    const redact = createRedactor(['sk-live-abcdef123456']);
    const out = redact({
      note: 'key is sk-live-abcdef123456, ok',
      profile: { api_key: 'abc', max_tokens: 10 },
      schema: { properties: { hf_token: { type: 'string', format: 'password' } } },
    });
    expect(out.note).toBe(`key is ${REDACTED}, ok`);
    expect(out.profile).toEqual({ api_key: REDACTED, max_tokens: 10 });
    expect(out.schema.properties.hf_token).toEqual({ type: 'string', format: 'password' });
  });
});

describe('redaction of log arguments', () => {
  it('keeps an error readable, cuts cycles and leaves class instances alone', () => {
    const redact = createRedactor(['sk-live-abcdef123456']);
    const error = Object.assign(new Error('bad key sk-live-abcdef123456'), { code: 'X' });
    const out = redact({ err: error } as Record<string, unknown>) as { err: Record<string, unknown> };
    expect(out.err).toMatchObject({ type: 'Error', message: `bad key ${REDACTED}`, code: 'X' });
    expect(String(out.err.stack)).toContain('bad key');

    const loop: Record<string, unknown> = { name: 'a' };
    loop.self = loop;
    expect(redact(loop)).toEqual({ name: 'a', self: '[circular]' });

    class Socket { readonly secret = 'sk-live-abcdef123456'; }
    const socket = new Socket();
    expect((redact({ socket }) as { socket: unknown }).socket).toBe(socket);
  });
});

describe('isSecretKey', () => {
  it.each(['api_key', 'hf_token', 'hfToken', 'apiToken', 'accessToken', 'clientSecret', 'apiKey', 'password'])('%s is a secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });
  it.each(['max_tokens', 'maxTokens', 'stop_token', 'eos_token', 'prompt', 'keyId', 'token_count'])('%s is not', (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});

describe('what the API shows (maskForView)', () => {
  it('masks userinfo and credential query values in URLs, and nothing else of them', () => {
    expect(maskUrlCredentials('https://cdn.test/a.png?X-Amz-Signature=abc123&X-Amz-Date=20260101&w=2')).toBe(
      `https://cdn.test/a.png?X-Amz-Signature=${encodeURIComponent(REDACTED)}&X-Amz-Date=20260101&w=2`,
    );
    expect(maskUrlCredentials('see https://bob:hunter2@files.test/x?api_key=K1&token=T2 now')).toBe(
      `see https://${encodeURIComponent(REDACTED)}@files.test/x?api_key=${encodeURIComponent(REDACTED)}&token=${encodeURIComponent(REDACTED)} now`,
    );
    expect(maskUrlCredentials('https://cdn.test/cat.png?width=512')).toBe('https://cdn.test/cat.png?width=512');
    expect(maskUrlCredentials('no url here, key=abc')).toBe('no url here, key=abc');
  });

  it('masks scalar values under secret-named keys anywhere, and leaves settings such as max_tokens', () => {
    const view = maskForView({ candidate: { payload: { hf_token: 'hf_SECRET', max_tokens: 50, prompt: 'a cat' } }, edits: { api_key: 'k' }, at: new Date(0) });
    expect(view).toEqual({ candidate: { payload: { hf_token: REDACTED, max_tokens: 50, prompt: 'a cat' } }, edits: { api_key: REDACTED }, at: new Date(0) });
  });
});

describe('credential query values in text (maskQuerySecrets)', () => {
  it('masks token, signature and key values in bare paths and whole URLs, and leaves other parameters alone', () => {
    expect(maskQuerySecrets('/api/decision-links?token=v1.abc.def')).toBe(`/api/decision-links?token=${REDACTED}`);
    expect(maskQuerySecrets('GET /x?page=2&access_token=abc&sig=zz#top')).toBe(`GET /x?page=2&access_token=${REDACTED}&sig=${REDACTED}#top`);
    expect(maskQuerySecrets('see https://h.test/p?max_tokens=5&q=token=1')).toBe('see https://h.test/p?max_tokens=5&q=token=1');
    expect(maskQuerySecrets('a=b token=c')).toBe('a=b token=c');
    expect(maskQuerySecrets('/p?token=')).toBe('/p?token=');
  });
});
