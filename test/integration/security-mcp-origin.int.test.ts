// Promise: /mcp refuses a foreign Origin, and `vetted mcp --http` a foreign Host, with a 403 problem before the key is read (DNS rebinding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type RunningMcpServer } from '../../api/mcp-app.ts';
import { request } from 'node:http';
import { createApiHarness, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;
let local: RunningMcpServer;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_MCP_ALLOWED_ORIGINS: 'https://agent.example' });
  local = await startMcpHttpServer(api.system, { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await local?.close();
  await api?.close();
});

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'queue_stats', arguments: {} } });

function viaApi(headers: Record<string, string>, key: string | null = api.keys.admin) {
  return api.app.inject({
    method: 'POST', url: '/mcp', payload: body,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
}

describe('Origin and Host on /mcp', () => {
  it('vetted api: a foreign Origin is a 403 problem naming the header, before any key check', async () => {
    for (const key of [api.keys.admin, null]) {
      const refused = await viaApi({ origin: 'http://evil.example', host: 'evil.example' }, key);
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', field: 'headers.origin' });
    }
    expect((await viaApi({ origin: 'null' })).statusCode).toBe(403);
  });

  it('vetted api: loopback and listed origins, and no Origin at all, reach the tools', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://agent.example', undefined]) {
      const answer = await viaApi(origin ? { origin } : {});
      expect(answer.statusCode, origin).toBe(200);
      expect(answer.json()).toMatchObject({ result: { structuredContent: { status: 'ok' } } });
    }
  });

  it('vetted mcp --http: a foreign Host is refused by default, loopback names pass', async () => {
    const rebound = await post(local.url, { host: 'evil.example', origin: 'http://evil.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.json).toMatchObject({ code: 'FORBIDDEN', field: 'headers.origin' });
    const hostOnly = await post(local.url, { host: 'evil.example' });
    expect(hostOnly.status).toBe(403);
    expect(hostOnly.json).toMatchObject({ code: 'FORBIDDEN', field: 'headers.host' });
    expect((await post(local.url, {})).status).toBe(200);
    expect((await post(local.url, { host: `localhost:${new URL(local.url).port}` })).status).toBe(200);
  });

  it('VETTED_MCP_ALLOWED_HOSTS replaces the loopback default', async () => {
    const config = { ...api.system.config, mcp: { allowedOrigins: [], allowedHosts: ['vetted.example'] } };
    const listed = await startMcpHttpServer({ ...api.system, config }, { host: '127.0.0.1', port: 0 });
    try {
      expect((await post(listed.url, { host: 'vetted.example:443' })).status).toBe(200);
      expect(await post(listed.url, { host: '127.0.0.1' })).toMatchObject({ status: 403, json: { field: 'headers.host' } });
    } finally {
      await listed.close();
    }
  });
});

/** A POST with the exact Host and Origin given (fetch would replace Host with the URL's). */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${api.keys.admin}`, ...headers },
    }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
