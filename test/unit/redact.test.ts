import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretKey, REDACTED } from '../../src/observability/redact.ts';

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
