// Promise: /metrics, on the API and on a worker's --metrics-port listener, answers only with VETTED_METRICS_TOKEN as a
// bearer token when it is set, and only loopback callers (never in production mode) when it is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from '../../src/observability/metrics-server.ts';
import { createApiHarness, type ApiHarness } from '../support/api.ts';

const TOKEN = 'a-metrics-token-for-tests';
const WRONG_AUTHORIZATIONS = (apiKey: string) => [undefined, 'Bearer wrong-token', `Bearer ${apiKey}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`];
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_METRICS_TOKEN: TOKEN });
  // Something tenant-specific in the registry, so a refused answer leaking it would show.
  api.system.metrics.runOutcomes.inc({ tenant: 't1', model: 'inline', outcome: 'completed' });
});

afterAll(async () => {
  await api?.close();
});

describe('/metrics access', () => {
  it('needs the metrics token: none, a wrong one or an API key is a 401 problem, the token reads the metrics', async () => {
    for (const authorization of WRONG_AUTHORIZATIONS(api.keys.admin)) {
      const refused = await api.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(refused.statusCode, authorization).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(refused.body).not.toContain('tenant=');
    }
    const allowed = await api.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('# HELP');
  });
});

describe("a worker's --metrics-port listener", () => {
  async function withListener(access: { token: string | undefined; production: boolean }, use: (server: MetricsServer) => Promise<void>): Promise<void> {
    const server = await startMetricsServer(api.system.metrics.registry, '127.0.0.1', 0, access);
    try {
      await use(server);
    } finally {
      await server.close();
    }
  }
  const scrape = (server: MetricsServer, authorization?: string) =>
    fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: authorization ? { authorization } : {} });

  it('asks for the same token as the API: anything else is a 401 problem naming the header, with no metrics in it', async () => {
    await withListener({ token: TOKEN, production: false }, async (server) => {
      for (const authorization of WRONG_AUTHORIZATIONS(api.keys.admin)) {
        const refused = await scrape(server, authorization);
        expect(refused.status, authorization).toBe(401);
        expect(refused.headers.get('content-type')).toBe('application/problem+json');
        const body = await refused.text();
        expect(JSON.parse(body)).toMatchObject({ code: 'UNAUTHORIZED', field: 'headers.authorization' });
        expect(body).not.toContain('tenant=');
      }
      const allowed = await scrape(server, `Bearer ${TOKEN}`);
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('vetted_run_outcomes_total{tenant="t1"');
    });
  });

  it('without a token answers a loopback caller, and in production mode nobody', async () => {
    await withListener({ token: undefined, production: false }, async (server) => {
      expect((await scrape(server)).status).toBe(200);
    });
    await withListener({ token: undefined, production: true }, async (server) => {
      const refused = await scrape(server);
      expect(refused.status).toBe(403);
      const body = await refused.text();
      expect(JSON.parse(body)).toMatchObject({ code: 'FORBIDDEN' });
      expect(body).toContain('VETTED_METRICS_TOKEN');
      expect(body).not.toContain('tenant=');
    });
  });
});
