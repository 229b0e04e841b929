/**
 * PostgreSQL or Redis away (restarting, failing over) is not a server bug: the API answers 503
 * SERVICE_UNAVAILABLE with `Retry-After`, naming the dependency, instead of 500 INTERNAL or a request that
 * hangs until the service is back.
 *
 * Two ways in: a route that needs Redis (it enqueues) is refused at once while the queue connection is
 * not ready, because BullMQ's connection would otherwise hold its command until Redis returns; and any
 * error that is a lost or refused connection (pg, ioredis) is mapped by the error handler
 * (problem-details.ts) through {@link dependencyOfError}.
 */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import { parseRedisUrl, redisPorts } from '../../src/redis-url.ts';
import type { System } from '../../src/system.ts';

export type Dependency = 'postgres' | 'redis';

/** How long a client is asked to wait before trying again: about one service restart. */
export const RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the route needs beyond the process. Routes behind a permission need PostgreSQL anyway (the API
     * key lookup); a route that enqueues says `redis` too, so it is refused quickly while Redis is away.
     */
    dependencies?: Dependency[];
  }
}

const NAMES: Record<Dependency, string> = { postgres: 'PostgreSQL', redis: 'Redis' };

/** The dependencies a route declares, plus PostgreSQL for every route behind an API key. */
export function routeDependencies(config: { permission?: unknown; dependencies?: readonly Dependency[] } | undefined): Dependency[] {
  const declared = new Set(config?.dependencies ?? []);
  if (config?.permission) declared.add('postgres');
  return (['postgres', 'redis'] as const).filter((dependency) => declared.has(dependency));
}

/** The problem for a dependency that does not answer (503, retryable, `details.dependency`). */
export function dependencyUnavailable(dependency: Dependency, reason: string, cause?: unknown): VettedError {
  return new VettedError('SERVICE_UNAVAILABLE', `${NAMES[dependency]} is not answering (${reason}); try again in ${RETRY_AFTER_SECONDS} s`, {
    details: { dependency },
    cause,
  });
}

export function registerDependencyGate(app: FastifyInstance, system: System): void {
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.dependencies?.includes('redis')) return;
    // Embedded mode: no Redis, the in-process runner takes the work.
    if (!system.queues) return;
    const status = system.queues.connection.status;
    if (status !== 'ready') throw dependencyUnavailable('redis', `connection ${status}`);
  });
}

/** Connection-level failures: PostgreSQL's connection-exception and shutdown classes, and the sockets under both clients. */
const PG_CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /^Client has encountered a connection error/, /Cannot use a pool after calling end/];
const REDIS_MESSAGES = [/^Connection is closed/, /^Reached the max retries per request limit/, /Stream isn't writeable/];

/** Where the dependencies listen, to tell their refused sockets from any other (a provider's, say). */
export interface DependencyEndpoints {
  postgresPort: number;
  /** One server's port, or every seed node's of a Redis Cluster. */
  redisPorts: readonly number[];
}

export function endpointsOf(config: { databaseUrl: string; redisUrl: string }): DependencyEndpoints {
  const port = (url: string, fallback: number) => Number(new URL(url).port || fallback);
  return { postgresPort: port(config.databaseUrl, 5432), redisPorts: redisPorts(parseRedisUrl(config.redisUrl)) };
}

/**
 * Which dependency a failure says is away, looking through wrapped causes (drizzle wraps pg's errors in
 * DrizzleQueryError); undefined for every other error (those stay 500s: bugs).
 */
export function dependencyOfError(error: unknown, endpoints: DependencyEndpoints): Dependency | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const found = classify(current as Error & { code?: unknown; port?: unknown }, endpoints);
    if (found) return found;
  }
  return undefined;
}

function classify(error: Error & { code?: unknown; port?: unknown }, endpoints: DependencyEndpoints): Dependency | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  if (PG_CONNECTION_CODES.has(code) || code.startsWith('08')) return 'postgres';
  if (error.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((pattern) => pattern.test(error.message))) return 'redis';
  if (PG_MESSAGES.some((pattern) => pattern.test(error.message))) return 'postgres';
  if (!SOCKET_CODES.has(code)) return undefined;
  if (error.port === endpoints.postgresPort) return 'postgres';
  if (typeof error.port === 'number' && endpoints.redisPorts.includes(error.port)) return 'redis';
  return undefined;
}
