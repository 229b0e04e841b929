/**
 * Whether the services a full installation needs answer: `vetted demo` runs embedded when one does not. One
 * try each, a few seconds at most, on connections that never retry.
 */
import pg from 'pg';
import { redactUrlPassword } from '../db/client.ts';
import { probeRedis } from '../system.ts';

export interface UnreachableService {
  service: 'PostgreSQL' | 'Redis';
  /** The URL tried, password masked. */
  url: string;
  reason: string;
}

const POSTGRES_TIMEOUT_MS = 3000;

/** The services that did not answer, with what was tried and why it failed (empty when both answer). */
export async function unreachableServices(config: { databaseUrl: string; redisUrl: string }): Promise<UnreachableService[]> {
  const [postgres, redis] = await Promise.all([reasonOf(() => probePostgres(config.databaseUrl)), reasonOf(() => probeRedis(config.redisUrl))]);
  const missing: UnreachableService[] = [];
  if (postgres !== undefined) missing.push({ service: 'PostgreSQL', url: redactUrlPassword(config.databaseUrl), reason: postgres });
  if (redis !== undefined) missing.push({ service: 'Redis', url: redactUrlPassword(config.redisUrl), reason: redis });
  return missing;
}

/** The server answers: its maintenance database, since the one named may not exist yet (it is created then). */
async function probePostgres(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: POSTGRES_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function reasonOf(probe: () => Promise<void>): Promise<string | undefined> {
  try {
    await probe();
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message || (error as NodeJS.ErrnoException).code || error.name : String(error);
    return message;
  }
}
