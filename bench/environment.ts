/**
 * The bench's own corner of the shared services: a database `vetted_bench_<unix seconds>_<random>` and a
 * BullMQ prefix `vetted-bench-<same>`, both removed at the end (also on Ctrl-C). The `vetted` database and
 * every other prefix are never touched.
 */
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import type { StageName } from '../src/engine/stages.ts';
import { createRedisConnection } from '../src/queue/queues.ts';
import type { Cleanup } from './cleanup.ts';
import { deleteKeys, scanKeys } from './redis-keys.ts';

const DATABASE_PREFIX = 'vetted_bench_';
const QUEUE_PREFIX = 'vetted-bench-';
/** Leftovers of a bench that was killed (SIGKILL skips the cleanup) are swept after this long. */
const STALE_AFTER_SECONDS = 3 * 3600;

export interface BenchEnvironment {
  databaseName: string;
  databaseUrl: string;
  redisUrl: string;
  /** Per-stage worker concurrency, used for Vetted's workers and the baseline's alike. */
  concurrency: Readonly<Record<StageName, number>>;
  poolSize: number;
  /** A BullMQ prefix for one part of the bench, so phases never see each other's queues or events. */
  prefixFor(part: string): string;
  /**
   * Environment overrides that make loadConfig describe this bench: its database, prefix, heuristic + dry;
   * `extra` goes on top (the sims' URLs, a shadow sample rate, the API's rate limit).
   */
  vettedEnv(prefix: string, extra?: Readonly<Record<string, string>>): Record<string, string>;
  vettedConfig(prefix: string, extra?: Readonly<Record<string, string>>): Readonly<Config>;
}

export async function createBenchEnvironment(
  options: { concurrency: number | undefined; poolSize: number },
  cleanup: Cleanup,
  note: (line: string) => void,
): Promise<BenchEnvironment> {
  const base = loadConfig(process.env);
  const id = `${Math.floor(Date.now() / 1000)}_${Math.random().toString(36).slice(2, 8)}`;
  const databaseName = `${DATABASE_PREFIX}${id}`;
  const databaseUrl = withDatabase(base.databaseUrl, databaseName);
  const adminUrl = withDatabase(base.databaseUrl, 'postgres');
  const prefix = `${QUEUE_PREFIX}${id.replace('_', '-')}`;

  await sweepStaleLeftovers(adminUrl, base.redisUrl, note);
  await withAdmin(adminUrl, (client) => client.query(`create database "${databaseName}"`));
  cleanup.defer(`drop database ${databaseName}`, () => withAdmin(adminUrl, (c) => c.query(`drop database if exists "${databaseName}" with (force)`)).then(() => undefined));
  cleanup.defer(`delete Redis keys ${prefix}-*`, async () => {
    const redis = createRedisConnection(base.redisUrl);
    try {
      await deleteKeys(redis, `${prefix}-*`);
    } finally {
      redis.disconnect();
    }
  });

  const vettedEnv = (queuePrefix: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    REDIS_URL: base.redisUrl,
    VETTED_QUEUE_PREFIX: queuePrefix,
    // Per-run info lines would measure pino and the terminal, not the pipeline.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    VETTED_BUILDER: 'heuristic',
    VETTED_PROVIDER: 'dry',
    VETTED_POLICY: 'auto',
    ...(options.concurrency === undefined ? {} : concurrencyEnv(options.concurrency)),
    ...extra,
  });
  const vettedConfig = (queuePrefix: string, extra?: Readonly<Record<string, string>>) => loadConfig({ ...process.env, ...vettedEnv(queuePrefix, extra) });
  return {
    databaseName,
    databaseUrl,
    redisUrl: base.redisUrl,
    concurrency: vettedConfig(prefix).concurrency,
    poolSize: options.poolSize,
    prefixFor: (part) => `${prefix}-${part}`,
    vettedEnv,
    vettedConfig,
  };
}

/** `--concurrency N` sets every stage, overriding VETTED_CONCURRENCY and the per-stage variables. */
function concurrencyEnv(n: number): Record<string, string> {
  const value = String(n);
  return {
    VETTED_CONCURRENCY: value,
    VETTED_CONCURRENCY_EXTRACT: value,
    VETTED_CONCURRENCY_ASSEMBLE: value,
    VETTED_CONCURRENCY_BUILD: value,
    VETTED_CONCURRENCY_VALIDATE: value,
    VETTED_CONCURRENCY_EXECUTE: value,
  };
}

function withDatabase(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Databases and prefixes of benches killed hours ago; the name carries the start time. */
async function sweepStaleLeftovers(adminUrl: string, redisUrl: string, note: (line: string) => void): Promise<void> {
  const cutoff = Math.floor(Date.now() / 1000) - STALE_AFTER_SECONDS;
  const isStale = (started: string | undefined) => Number.isFinite(Number(started)) && Number(started) < cutoff;
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like 'vetted\\_bench\\_%'`);
    for (const { datname } of rows) {
      if (!isStale(datname.slice(DATABASE_PREFIX.length).split('_')[0])) continue;
      await client.query(`drop database if exists "${datname}" with (force)`);
      note(`dropped a stale bench database: ${datname}`);
    }
  });
  const redis = createRedisConnection(redisUrl);
  try {
    const stale = new Set((await scanKeys(redis, `${QUEUE_PREFIX}*`)).map((key) => key.split(':')[0] ?? '').filter((p) => isStale(p.slice(QUEUE_PREFIX.length).split('-')[0])));
    for (const prefix of stale) note(`deleted ${await deleteKeys(redis, `${prefix}:*`)} stale bench keys under ${prefix}`);
  } finally {
    redis.disconnect();
  }
}
