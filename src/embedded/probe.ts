/**
 * Whether the services a full installation needs answer: `vetted demo` runs embedded when one does not. One
 * try each, a few seconds at most, on connections that never retry.
 */
import { redactUrlPassword } from '../db/client.ts';
import { probePostgres } from '../db/probe.ts';
import type { RedisTarget } from '../redis-url.ts';
import { probeRedis } from '../system.ts';

export interface UnreachableService {
  service: 'PostgreSQL' | 'Redis';
  /** The URL tried, password masked. */
  url: string;
  reason: string;
}

/** The services that did not answer, with what was tried and why it failed (empty when both answer). */
export async function unreachableServices(config: { databaseUrl: string; redisUrl: string; redis: RedisTarget }): Promise<UnreachableService[]> {
  const [postgres, redis] = await Promise.all([reasonOf(() => probePostgres(config.databaseUrl)), reasonOf(() => probeRedis(config.redis))]);
  const missing: UnreachableService[] = [];
  if (postgres !== undefined) missing.push({ service: 'PostgreSQL', url: redactUrlPassword(config.databaseUrl), reason: postgres });
  if (redis !== undefined) missing.push({ service: 'Redis', url: redactUrlPassword(config.redisUrl), reason: redis });
  return missing;
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
