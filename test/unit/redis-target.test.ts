/** REDIS_URL: one server or a Redis Cluster, read once by the configuration; queue names hash-tagged on a cluster. */
import { describe, expect, it } from 'vitest';
import { endpointsOf } from '../../api/plugins/dependencies.ts';
import { loadConfig } from '../../src/config.ts';
import { redactUrlPassword } from '../../src/db/client.ts';
import { VettedError } from '../../src/errors.ts';
import { bullQueueName, stageQueueName } from '../../src/queue/queues.ts';
import { parseRedisUrl, redisPorts } from '../../src/redis-url.ts';

function refusal(run: () => unknown): VettedError {
  try {
    run();
  } catch (error) {
    if (error instanceof VettedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseRedisUrl', () => {
  it('keeps a one-server URL as it is', () => {
    expect(parseRedisUrl('redis://:secret@cache:6380/2')).toEqual({ mode: 'standalone', url: 'redis://:secret@cache:6380/2' });
    expect(parseRedisUrl('rediss://cache')).toEqual({ mode: 'standalone', url: 'rediss://cache' });
  });

  it('reads the cluster form: seed nodes, credentials, TLS, IPv6', () => {
    expect(parseRedisUrl('redis+cluster://127.0.0.1:7000,127.0.0.1:7001, 127.0.0.1:7002')).toEqual({
      mode: 'cluster', tls: false, nodes: [{ host: '127.0.0.1', port: 7000 }, { host: '127.0.0.1', port: 7001 }, { host: '127.0.0.1', port: 7002 }],
    });
    expect(parseRedisUrl('rediss+cluster://ops:p%40ss@redis-a.internal:6379,[::1]:7001/0')).toEqual({
      mode: 'cluster', tls: true, username: 'ops', password: 'p@ss', nodes: [{ host: 'redis-a.internal', port: 6379 }, { host: '::1', port: 7001 }],
    });
    expect(parseRedisUrl('redis+cluster://:only-a-password@a:1')).toMatchObject({ password: 'only-a-password' });
  });

  it.each([
    ['redis+cluster://', /cluster node ""/],
    ['redis+cluster://a:7000,b', /cluster node "b", which is not host:port/],
    ['redis+cluster://a:7000,,b:7001', /cluster node ""/],
    ['redis+cluster://a:70000', /cluster node "a:70000"/],
    ['redis+cluster://a:7000/3', /database "3": a Redis Cluster has only database 0/],
    ['redis://cache:6379/zero', /database "zero", which is not a number/],
    ['redis://cache:port', /is not a URL/],
  ])('refuses %s, naming REDIS_URL', (text, reason) => {
    const error = refusal(() => parseRedisUrl(text));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.field).toBe('REDIS_URL');
    expect(error.message).toMatch(/^Environment variable REDIS_URL /);
    expect(error.message).toMatch(reason);
  });

  it('is what loadConfig reads, once, with the same refusals', () => {
    expect(loadConfig({ REDIS_URL: 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000' }).redis).toMatchObject({ mode: 'cluster', nodes: [{ host: '10.0.0.1' }, { host: '10.0.0.2' }] });
    expect(loadConfig({}).redis).toEqual({ mode: 'standalone', url: 'redis://127.0.0.1:6379' });
    expect(refusal(() => loadConfig({ REDIS_URL: 'redis+cluster://a:7000,b' }))).toMatchObject({ code: 'CONFIG_INVALID', field: 'REDIS_URL' });
    expect(refusal(() => loadConfig({ REDIS_URL: 'memcached://a:7000' }))).toMatchObject({ code: 'CONFIG_INVALID', field: 'REDIS_URL' });
  });

  it('knows the ports Redis listens on, and a password in the cluster form is redacted in messages', () => {
    expect(redisPorts(parseRedisUrl('redis+cluster://a:7000,b:7001'))).toEqual([7000, 7001]);
    expect(redisPorts(parseRedisUrl('redis://cache'))).toEqual([6379]);
    expect(endpointsOf({ databaseUrl: 'postgres://db/vetted', redisUrl: 'redis+cluster://a:7000,b:7001' }).redisPorts).toEqual([7000, 7001]);
    expect(redactUrlPassword('redis+cluster://ops:hunter2@a:7000,b:7001')).toBe('redis+cluster://ops:***@a:7000,b:7001');
    expect(redactUrlPassword('redis+cluster://a:7000,b:7001')).toBe('redis+cluster://a:7000,b:7001');
  });
});

describe('queue names', () => {
  const cluster = parseRedisUrl('redis+cluster://a:7000');
  const server = parseRedisUrl('redis://cache:6379');

  it('are hash tags on a cluster, so all of one queue hashes to one slot', () => {
    expect(bullQueueName('vetted-expiry', cluster)).toBe('{vetted-expiry}');
    expect(stageQueueName('extract', cluster)).toBe('{vetted-extract}');
  });

  it('are unchanged on one server, so an upgrade finds the jobs already queued', () => {
    expect(bullQueueName('vetted-expiry', server)).toBe('vetted-expiry');
    expect(stageQueueName('extract', server)).toBe('vetted-extract');
    expect(stageQueueName('extract')).toBe('vetted-extract');
  });
});
