/**
 * Runs once before the integration tests: PostgreSQL and Redis must answer (scripts/ensure-services.sh
 * starts them under `npm test`; here we only check, with a message that says what to do), and the
 * migrated template database must exist.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { ADMIN_URL, dropStaleTestDatabases, ensureTemplate } from './support/databases.ts';

export const TEST_REDIS_URL = process.env.VETTED_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function checkPostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${ADMIN_URL} (${(error as Error).message}). Run the tests with \`npm test\`, which starts it, or start it yourself.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${TEST_REDIS_URL} (${(error as Error).message}). Run the tests with \`npm test\`, which starts it, or start it yourself.`);
  } finally {
    redis.disconnect();
  }
}

export default async function setup(): Promise<void> {
  await Promise.all([checkPostgres(), checkRedis()]);
  await dropStaleTestDatabases();
  await ensureTemplate();
}
