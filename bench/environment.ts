/**
 * The bench's own corner of the shared services: a database `vetted_bench_<unix seconds>_p<pid>_<random>` and a
 * BullMQ prefix `vetted-bench-<same>`, both removed at the end (also on Ctrl-C). The `vetted` database and
 * every other prefix are never touched. A bench killed outright (SIGKILL skips the cleanup) leaves them; the next
 * bench removes them once their bench process is gone (same machine) or, failing that, hours later.
 */
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import type { StageName } from '../src/engine/stages.ts';
import { createRedisConnection } from '../src/queue/queues.ts';
import type { Cleanup } from './cleanup.ts';
import { isProcessAlive } from '../src/util/process-alive.ts';
import { deleteKeys, scanKeys } from './redis-keys.ts';

const DATABASE_PREFIX = 'vetted_bench_';
const QUEUE_PREFIX = 'vetted-bench-';
/** Leftovers whose bench cannot be checked (another machine's, an older name) are swept after this long. */
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
  const id = `${Math.floor(Date.now() / 1000)}_p${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const databaseName = `${DATABASE_PREFIX}${id}`;
  const databaseUrl = withDatabase(base.databaseUrl, databaseName);
  const adminUrl = withDatabase(base.databaseUrl, 'postgres');
  const prefix = `${QUEUE_PREFIX}${id.replaceAll('_', '-')}`;

  await sweepStaleLeftovers(adminUrl, base.redisUrl, isLoopback(base.databaseUrl), note);
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

/**
 * Databases and prefixes of benches that were killed: their name carries the start time and the bench's pid.
 * Gone when that pid no longer runs here (only when PostgreSQL is on this machine, so the pid is ours to read),
 * or when older than STALE_AFTER_SECONDS. A bench still running beside this one keeps its own.
 */
async function sweepStaleLeftovers(adminUrl: string, redisUrl: string, sameMachine: boolean, note: (line: string) => void): Promise<void> {
  const cutoff = Math.floor(Date.now() / 1000) - STALE_AFTER_SECONDS;
  const isStale = (id: string) => {
    const [started, pid] = id.split(/[_-]/);
    if (Number.isFinite(Number(started)) && Number(started) < cutoff) return true;
    return sameMachine && /^p\d+$/.test(pid ?? '') && Number(pid!.slice(1)) !== process.pid && !isProcessAlive(Number(pid!.slice(1)));
  };
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like 'vetted\\_bench\\_%'`);
    for (const { datname } of rows) {
      if (!isStale(datname.slice(DATABASE_PREFIX.length))) continue;
      await client.query(`drop database if exists "${datname}" with (force)`);
      note(`dropped a stale bench database: ${datname}`);
    }
  });
  const redis = createRedisConnection(redisUrl);
  try {
    const stale = new Set((await scanKeys(redis, `${QUEUE_PREFIX}*`)).map((key) => key.split(':')[0] ?? '').filter((p) => isStale(p.slice(QUEUE_PREFIX.length))));
    for (const prefix of stale) note(`deleted ${await deleteKeys(redis, `${prefix}:*`)} stale bench keys under ${prefix}`);
  } finally {
    redis.disconnect();
  }
}

function isLoopback(databaseUrl: string): boolean {
  const host = new URL(databaseUrl).hostname;
  return host === '' || host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}
