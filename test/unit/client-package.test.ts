/**
 * @vetted/client as a consumer gets it: compiled on its own (clients/typescript/tsconfig.build.json, not the
 * root's config) and imported by its package name through the workspace link and its `exports` map.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type * as ClientModule from '../../clients/typescript/src/index.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url);

describe('@vetted/client package', () => {
  it('builds to dist with its own tsconfig and works when imported by name', async () => {
    await run('npm', ['run', '--silent', 'build', '-w', 'clients/typescript'], { cwd: ROOT, env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } });
    const manifest = JSON.parse(await readFile(new URL('clients/typescript/package.json', ROOT), 'utf8')) as { name: string; engines: { node: string }; exports: Record<string, { types: string; import: string }> };
    expect(manifest.engines.node).toBe('>=20');
    const declarations = await readFile(new URL(`clients/typescript/${manifest.exports['.']!.types}`, ROOT), 'utf8');
    expect(declarations).toContain('createVettedClient');

    // A specifier the type checker does not follow: dist/ exists only after a build.
    const name = manifest.name;
    const client = (await import(name)) as typeof ClientModule;
    expect(Object.keys(client)).toEqual(expect.arrayContaining(['createVettedClient', 'verifyWebhook', 'followRunEvents', 'VettedApiError', 'WebhookVerificationError', 'TERMINAL_EVENT_TYPES']));
    const body = '{"id":"1","type":"run.created","at":"x","data":{},"run":{"id":"r"}}';
    const t = Math.floor(Date.now() / 1000);
    const header = `t=${t},v1=${createHmac('sha256', 's3cret').update(`${t}.${body}`).digest('hex')}`;
    expect(client.verifyWebhook(header, body, 's3cret').type).toBe('run.created');
    expect(() => client.createVettedClient({ baseUrl: 'nope', apiKey: 'k' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'baseUrl' }));
  }, 240_000);
});
