/**
 * The soak's sampler: every interval, what could grow while Vetted runs for hours. Process RSS from /proc (the
 * API and each worker), the API's heap and event-loop delay from its own /metrics (prom-client's defaults),
 * Redis memory and key count, PostgreSQL table and index sizes, dead tuples, open connections and the age of the
 * oldest open transaction. A figure that cannot be read this time (a service mid-restart) is left out of that
 * sample, never guessed.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { sleep } from './log.ts';

export type Figures = Record<string, number>;

export interface SoakSample {
  minute: number;
  figures: Figures;
}

export interface SamplerTargets {
  apiUrl: string;
  redisUrl: string;
  pool: pg.Pool;
  /** The processes to measure, by role, read each time (a restarted process has a new pid). */
  pids(): Record<string, number | undefined>;
}

export class SoakSampler {
  readonly samples: SoakSample[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly redis: Redis;

  constructor(private readonly targets: SamplerTargets, private readonly intervalMs: number, readonly startedAt = Date.now()) {
    this.redis = new Redis(targets.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined);
  }

  start(): void {
    this.running = true;
    this.loop = (async () => {
      await this.redis.connect().catch(() => undefined);
      while (this.running) {
        this.samples.push({ minute: (Date.now() - this.startedAt) / 60_000, figures: await this.sample() });
        for (let waited = 0; this.running && waited < this.intervalMs; waited += 500) await sleep(500);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    this.redis.disconnect();
  }

  private async sample(): Promise<Figures> {
    const parts = await Promise.all([this.processes(), this.api(), this.redisFigures(), this.postgres()]);
    return Object.assign({}, ...parts) as Figures;
  }

  private async processes(): Promise<Figures> {
    const figures: Figures = {};
    let workers = 0;
    for (const [role, pid] of Object.entries(this.targets.pids())) {
      const rss = pid ? rssMb(pid) : undefined;
      if (rss === undefined) continue;
      figures[`rss ${role} (MB)`] = rss;
      if (role !== 'api') workers += rss;
    }
    if (workers > 0) figures['rss workers (MB)'] = workers;
    return figures;
  }

  private async api(): Promise<Figures> {
    try {
      const response = await fetch(`${this.targets.apiUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) return {};
      const text = await response.text();
      const figures: Figures = {};
      const heap = metric(text, 'vetted_process_nodejs_heap_size_used_bytes');
      const lag = metric(text, 'vetted_process_nodejs_eventloop_lag_p99_seconds');
      if (heap !== undefined) figures['api heap used (MB)'] = heap / 1024 / 1024;
      if (lag !== undefined) figures['api event-loop delay p99 (ms)'] = lag * 1000;
      return figures;
    } catch {
      return {};
    }
  }

  private async redisFigures(): Promise<Figures> {
    try {
      const [info, keys] = await Promise.all([this.redis.info('memory'), this.redis.dbsize()]);
      const used = /used_memory:(\d+)/.exec(info)?.[1];
      return { 'redis keys': keys, ...(used ? { 'redis memory (MB)': Number(used) / 1024 / 1024 } : {}) };
    } catch {
      return {};
    }
  }

  private async postgres(): Promise<Figures> {
    try {
      // The oldest open transaction: event streams hold back what came after it (api/settled-events.ts), so one
      // left open (a client never released, a transaction waiting on a call) shows here as a climbing age.
      const { rows } = await this.targets.pool.query<{ tables: string; indexes: string; dead: string; connections: string; oldest: string }>(
        `select (select coalesce(sum(pg_table_size(relid)), 0) from pg_stat_user_tables) as tables,
                (select coalesce(sum(pg_indexes_size(relid)), 0) from pg_stat_user_tables) as indexes,
                (select coalesce(sum(n_dead_tup), 0) from pg_stat_user_tables) as dead,
                (select count(*) from pg_stat_activity where datname = current_database()) as connections,
                (select coalesce(extract(epoch from max(now() - xact_start)), 0) from pg_stat_activity
                  where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null) as oldest`,
      );
      const row = rows[0];
      if (!row) return {};
      return {
        'pg tables (MB)': Number(row.tables) / 1024 / 1024,
        'pg indexes (MB)': Number(row.indexes) / 1024 / 1024,
        'pg dead tuples': Number(row.dead),
        'pg connections': Number(row.connections),
        'pg oldest open transaction (s)': Number(row.oldest),
      };
    } catch {
      return {};
    }
  }
}

function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** One unlabelled value from Prometheus text. */
function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1).trim().split(' ')[0]) : undefined;
}
