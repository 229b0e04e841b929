/**
 * WAL bytes per request of the pipeline, measured apart from whatever else the PostgreSQL cluster is doing:
 * `tsx scripts/wal-per-request.ts [requests] [inFlight]` runs the bench's requests (heuristic builder, dry
 * provider, all five stages, in-process workers) on a fresh database, then reads the WAL written meanwhile
 * with pg_waldump and keeps only the records that touch this database's relations (so other databases'
 * writes on a shared cluster do not count). Prints the bytes per request by relation, full-page images apart,
 * and the cluster-wide LSN difference beside it. Needs read access to the cluster's pg_wal (run it as root
 * or postgres on the database host) and PG_WALDUMP or pg_waldump on the path.
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { submitRun } from '../src/intake/submit-run.ts';
import { createSystem } from '../src/system.ts';
import { startStageWorkers } from '../workers/start-workers.ts';
import { benchRequest, registerBenchModels } from '../bench/workload.ts';
import { createTestDatabase, databaseUrl, dropTestDatabase, ensureTemplate } from '../test/support/databases.ts';
import { deleteRedisPrefix } from '../test/support/test-system.ts';

const requests = Number(process.argv[2] ?? 1000);
const inFlight = Number(process.argv[3] ?? 50);
const WALDUMP = process.env.PG_WALDUMP ?? '/usr/lib/postgresql/15/bin/pg_waldump';

await ensureTemplate();
const dbName = await createTestDatabase();
const prefix = `wal-${dbName.slice(3)}`;
const config = loadConfig({ DATABASE_URL: databaseUrl(dbName), REDIS_URL: 'redis://127.0.0.1:6379', VETTED_QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent', VETTED_CONCURRENCY: '8' });
const system = await createSystem(config, { migrate: false });
const workers = startStageWorkers(system);
const admin = new pg.Client({ connectionString: databaseUrl(dbName) });
await admin.connect();
try {
  await registerBenchModels(system);
  const tenant = 'wal';
  // A warm-up, unmeasured: prepared statements, caches, the first pages of each table.
  await drive(Math.min(100, requests), `${tenant}-warm`);
  const { rows: [start] } = await admin.query<{ lsn: string; dir: string; oid: number; tli: string }>(
    "select pg_current_wal_lsn()::text as lsn, current_setting('data_directory') || '/pg_wal' as dir, (select oid from pg_database where datname = current_database()) as oid, (select timeline_id::text from pg_control_checkpoint()) as tli",
  );
  const started = performance.now();
  await drive(requests, tenant);
  const seconds = (performance.now() - started) / 1000;
  const { rows: [end] } = await admin.query<{ lsn: string; bytes: string }>('select pg_current_wal_lsn()::text as lsn, pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text as bytes', [start!.lsn]);
  const names = await relationNames();
  const perRelation = walByRelation(start!.dir, start!.lsn, end!.lsn, start!.oid, names);
  const total = [...perRelation.values()].reduce((sum, r) => sum + r.bytes, 0);
  console.log(`${requests} requests at ${inFlight} in flight in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)} req/s)`);
  console.log(`WAL of this database: ${(total / requests / 1024).toFixed(2)} KB per request (cluster-wide LSN diff: ${(Number(end!.bytes) / requests / 1024).toFixed(2)} KB, other databases included)`);
  for (const [name, r] of [...perRelation].sort((a, b) => b[1].bytes - a[1].bytes)) {
    console.log(`  ${name.padEnd(40)} ${(r.bytes / requests).toFixed(0).padStart(6)} B/request (${(r.fpi / requests).toFixed(0)} B of full-page images, ${(r.records / requests).toFixed(1)} records)`);
  }
  if (process.env.WAL_SQL) console.log(execFileSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", dbName, "-f", process.env.WAL_SQL], { encoding: "utf8" }));
} finally {
  await admin.end();
  await workers.close();
  await system.close();
  await deleteRedisPrefix(prefix);
  await dropTestDatabase(dbName);
}

async function drive(count: number, tenantId: string): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const { run } = await submitRun(system, { tenantId, request: benchRequest(index), actor: 'wal' });
      await waitFor(run.id);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, one));
}

async function waitFor(runId: string): Promise<void> {
  for (;;) {
    const run = await system.store.get(runId);
    if (run && ['completed', 'failed', 'awaiting_human'].includes(run.status)) {
      if (run.status !== 'completed') throw new Error(`run ${runId} ended ${run.status}: ${JSON.stringify(run.error ?? run.pendingReview?.reason)}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function relationNames(): Promise<Map<string, string>> {
  const { rows } = await admin.query<{ node: string; name: string }>(
    "select pg_relation_filenode(c.oid)::text as node, c.relname as name from pg_class c where pg_relation_filenode(c.oid) is not null",
  );
  return new Map(rows.map((row) => [row.node, row.name]));
}

interface RelationWal {
  bytes: number;
  fpi: number;
  records: number;
}

/**
 * Sums pg_waldump's records by the relation of their first block reference, keeping this database's only.
 * A transaction's commit record names no relation; those are counted under `(commit)` when the
 * transaction wrote to this database.
 */
function walByRelation(dir: string, from: string, to: string, dbOid: number, names: Map<string, string>): Map<string, RelationWal> {
  let out: string;
  try {
    out = execFileSync(WALDUMP, ['-p', dir, '-s', from, '-e', to], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    // pg_waldump ends with an error when the last record is not on disk yet; what it printed before stands.
    out = String((error as { stdout?: string }).stdout ?? '');
  }
  const result = new Map<string, RelationWal>();
  const ours = new Set<string>();
  const commits: { tx: string; bytes: number }[] = [];
  const add = (name: string, bytes: number, fpi: number) => {
    const r = result.get(name) ?? { bytes: 0, fpi: 0, records: 0 };
    r.bytes += bytes;
    r.fpi += fpi;
    r.records += 1;
    result.set(name, r);
  };
  for (const line of out.split('\n')) {
    const total = /len \(rec\/tot\):\s*(\d+)\/\s*(\d+)/.exec(line);
    if (!total) continue;
    const bytes = Number(total[2]);
    const tx = /tx:\s*(\d+)/.exec(line)?.[1] ?? '0';
    const rel = /rel \d+\/(\d+)\/(\d+)/.exec(line);
    if (!rel) {
      if (line.startsWith('rmgr: Transaction')) commits.push({ tx, bytes });
      continue;
    }
    if (Number(rel[1]) !== dbOid) continue;
    ours.add(tx);
    const op = process.env.WAL_DETAIL ? ` ${/desc: (\S+)/.exec(line)?.[1] ?? ''}` : '';
    add(`${names.get(rel[2]!) ?? `filenode ${rel[2]}`}${op}`, bytes, bytes - Number(total[1]));
  }
  for (const commit of commits) if (ours.has(commit.tx)) add('(commit)', commit.bytes, 0);
  return result;
}
