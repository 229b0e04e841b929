/**
 * A whole Vetted system for one test file: its own PostgreSQL database (cloned from the migrated
 * template) and its own BullMQ prefix, so files running in parallel never see each other's runs or jobs.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config.ts';
import { createSystem, type QueuedSystem, type SystemOptions } from '../../src/system.ts';
import { createTestDatabase, databaseUrl, dropTestDatabase } from './databases.ts';

const REDIS_URL = process.env.VETTED_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestSystem extends QueuedSystem {
  /** Every log line the system wrote, parsed. */
  logs: Record<string, unknown>[];
  dispose(): Promise<void>;
}

export interface TestSystemOptions extends SystemOptions {
  /** Reach PostgreSQL through this port (a test's proxy in front of the real one) instead of its own. */
  postgresPort?: number;
  /** Work on this test database (from createTestDatabase, already filled) instead of a new one; dispose drops it. */
  database?: string;
}

export async function createTestSystem(
  env: Record<string, string> = {},
  options: TestSystemOptions = {},
): Promise<TestSystem> {
  const dbName = options.database ?? (await createTestDatabase());
  const prefix = `vt-${dbName.slice(3)}`;
  const url = new URL(databaseUrl(dbName));
  if (options.postgresPort) url.port = String(options.postgresPort);
  const config: Config = loadConfig({
    DATABASE_URL: url.toString(),
    REDIS_URL,
    VETTED_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'info',
    VETTED_CONCURRENCY: '4',
    ...env,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const system = await createSystem(config, { migrate: false, logDestination: sink, ...options });
  return {
    ...system,
    logs,
    async dispose() {
      await system.close();
      await deleteRedisPrefix(prefix);
      await dropTestDatabase(dbName);
    },
  };
}

export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
