/**
 * Media previews in the console: an attachment may name an intranet address (Vetted never fetches it), so the
 * console previews only the media hosts in config (VETTED_MEDIA_HOSTS, served in GET /api/me), shows any other
 * URL as text behind a click (console/src/review/media-hosts.ts, test/unit/media-preview.test.ts), and its
 * Content-Security-Policy lets the browser load images and media from those hosts only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConsole } from '../../api/console.ts';
import { previewOf } from '../../console/src/review/media-hosts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

const INTERNAL = 'http://192.168.0.1/cgi-bin/reboot?a.png';
let api: ApiHarness;
let consoleDir: string;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_MEDIA_HOSTS: 'cdn.test,*.media.example' });
  consoleDir = mkdtempSync(path.join(tmpdir(), 'vetted-console-'));
  writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
});
afterAll(async () => {
  await api?.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** The directive's sources, by name. */
function directive(policy: string, name: string): string[] {
  return policy.split(';').map((part) => part.trim().split(/\s+/)).find(([first]) => first === name)?.slice(1) ?? [];
}

describe('media previews', () => {
  it('the console is told its media hosts; an attachment naming an intranet address is shown behind a click, not previewed', async () => {
    const me = json<{ mediaHosts: string[] }>(await api.call('GET', '/api/me', { key: api.keys.reviewer }));
    expect(me.mediaHosts).toEqual(['cdn.test', '*.media.example']);
    const accepted = await api.call('POST', '/api/runs', {
      key: api.keys.submitter,
      body: { model: 'nightmareai/real-esrgan', prompt: 'sharpen it', attachments: [{ url: INTERNAL, mimeType: 'image/png', name: 'reboot.png' }], policy: 'require_human' },
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    // What the run page and the card do with the URL the API gives back, with the hosts /api/me gave.
    const run = json<{ request: { attachments: { url: string }[] } }>(await api.call('GET', `/api/runs/${json<{ id: string }>(accepted).id}/state`, { key: api.keys.reviewer }));
    expect(previewOf(run.request.attachments[0]!.url, me.mediaHosts)).toEqual({ kind: 'hidden', url: INTERNAL });
    expect(previewOf('https://cdn.test/fox.png', me.mediaHosts)).toMatchObject({ kind: 'image' });
  });

  it("the console's img-src and media-src allow this origin and the media hosts only", async () => {
    const app = Fastify();
    try {
      await registerConsole(app, consoleDir, api.system.config.mediaHosts);
      const policy = (await app.inject({ url: '/console/' })).headers['content-security-policy'] as string;
      for (const name of ['img-src', 'media-src']) {
        const sources = directive(policy, name);
        expect(sources).toContain("'self'");
        expect(sources).toEqual(expect.arrayContaining(['https://cdn.test', 'https://*.media.example']));
        expect(sources).not.toContain('http:');
        expect(sources).not.toContain('https:');
        expect(sources.some((source) => source.includes('192.168'))).toBe(false);
      }
      // Without media hosts, nothing but this origin (and data:/blob: URLs the console makes itself).
      const bare = Fastify();
      await registerConsole(bare, consoleDir, []);
      const strict = (await bare.inject({ url: '/console/' })).headers['content-security-policy'] as string;
      expect(directive(strict, 'img-src')).toEqual(["'self'", 'data:', 'blob:']);
      expect(directive(strict, 'media-src')).toEqual(["'self'", 'blob:']);
      await bare.close();
    } finally {
      await app.close();
    }
  });

  it('a malformed VETTED_MEDIA_HOSTS is refused at start, naming the variable', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    expect(() => loadConfig({ VETTED_MEDIA_HOSTS: 'https://cdn.test/path' })).toThrow(/VETTED_MEDIA_HOSTS/);
  });
});
